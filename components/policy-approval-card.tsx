"use client";

import type { Standing } from "@/lib/review/check-decider";
import type { ReviewStatus } from "@/lib/review/weigh-policy";
import { useRouter } from "next/navigation";
import { useOneShot } from "./use-one-shot";

/**
 * A teammate's plan under a review policy, for a reviewer whose approval counts toward the policy only (the record-only
 * route): it never releases the plan alone, the lead's mailbox answer does once the policy is met. Approve is offered
 * only when this person's approval would count, with the reason when it would not.
 */
export function PolicyApprovalCard({
  reviewId,
  position,
}: {
  reviewId: string;
  position: { status: ReviewStatus; standing: Standing | null };
}) {
  const router = useRouter();
  const { send, busy, error } = useOneShot(() => router.refresh());
  const { status, standing } = position;
  return (
    <section
      data-testid="policy-approval-card"
      aria-label="Review policy approval"
      className="flex flex-col gap-2 rounded-lg border border-amber-300 p-4 text-sm dark:border-amber-700"
    >
      <p data-testid="policy-status" role="status" className="font-medium text-amber-900 dark:text-amber-200">
        Review policy: {status.line}
      </p>
      {status.met ? (
        <p>The policy is met: the team lead&apos;s answer releases the plan.</p>
      ) : standing && !standing.counts ? (
        <p data-testid="approve-standing" role="status">
          {standing.reason}
        </p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            data-testid="record-approval"
            disabled={busy}
            onClick={() => send(`/api/reviews/${reviewId}/decision`, { decision: "approve" })}
            className="min-h-11 rounded bg-emerald-700 px-3 py-2 text-white disabled:opacity-50"
          >
            Approve for the review policy
          </button>
          <span className="text-zinc-600 dark:text-zinc-400">Recorded as yours; the team lead still answers.</span>
        </div>
      )}
      {error ? (
        <p role="alert" data-testid="policy-approval-error" className="text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}
