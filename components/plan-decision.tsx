import { wordDiff } from "@/lib/plan/views/word-diff";
import { planBlocks } from "@/lib/plan/plan-blocks";
import type { PlanDetails } from "@/lib/review/review-types";
import type { Standing } from "@/lib/review/check-decider";
import type { ReviewStatus } from "@/lib/review/weigh-policy";
import { DecisionCard } from "./decision-card";
import { PlanMarkdown } from "./plan-markdown";

/**
 * The decision card for a plan, built on the server the same way wherever it shows (session page, desk,
 * mailbox): the plan rendered block by block, the word diff from the version before, its threads and files.
 */
export function PlanDecision({
  reviewId,
  plan,
  autoAllowed,
  prePlanMode,
  lead,
  position,
}: {
  reviewId: string;
  plan: PlanDetails;
  autoAllowed: boolean;
  prePlanMode?: string | null;
  lead?: { url: string; from: string };
  /** Where the review stands, and this reader's standing on it (the server's own answer). */
  position?: { status: ReviewStatus; standing: Standing | null } | null;
}) {
  const policy = position && !position.status.plain ? position.status.line : undefined;
  const standing = position?.standing ?? null;
  const blocks = planBlocks(plan.markdown).map((b) => ({
    lineStart: b.lineStart,
    lineEnd: b.lineEnd,
    node: <PlanMarkdown markdown={b.source} bare />,
  }));
  return (
    <DecisionCard
      // A decision that changes where the review stands (an approval recorded) shows a fresh card.
      key={`${reviewId}-${position?.status.line ?? ""}-${standing?.counts ?? ""}`}
      reviewId={reviewId}
      version={plan.version}
      markdown={plan.markdown}
      blocks={blocks}
      changes={plan.previous ? wordDiff(plan.previous.markdown, plan.markdown) : []}
      autoAllowed={autoAllowed}
      prePlanMode={prePlanMode}
      threads={plan.threads}
      files={plan.files}
      receives={plan.receives}
      workspace={plan.workspace}
      {...(lead ? { lead } : {})}
      {...(policy ? { policy } : {})}
      {...(standing ? { standing: { counts: standing.counts, reason: standing.reason } } : {})}
      policyWeighed={position ? !position.status.plain : false}
    />
  );
}
