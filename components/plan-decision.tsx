import { wordDiff } from "@/lib/core/word-diff";
import { planBlocks } from "@/lib/plan/plan-blocks";
import type { PlanDetails } from "@/lib/plan/plan-details";
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
  policy,
}: {
  reviewId: string;
  plan: PlanDetails;
  autoAllowed: boolean;
  prePlanMode?: string | null;
  lead?: { url: string; from: string };
  policy?: string;
}) {
  const blocks = planBlocks(plan.markdown).map((b) => ({
    lineStart: b.lineStart,
    lineEnd: b.lineEnd,
    node: <PlanMarkdown markdown={b.source} bare />,
  }));
  return (
    <DecisionCard
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
    />
  );
}
