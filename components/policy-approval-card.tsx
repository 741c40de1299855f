"use client";

import { useRouter } from "next/navigation";
import { useOneShot } from "./use-one-shot";

/**
 * A teammate's plan under a review policy, on the teammate's session page: a reviewer the policy needs records their
 * approval here. It never releases the plan alone: the lead's mailbox answer does, once the policy is met.
 */
export function PolicyApprovalCard({ reviewId, summary, met }: { reviewId: string; summary: string; met: boolean }) {
  const router = useRouter();
  const { send, busy, error } = useOneShot(() => router.refresh());
  return (
    <section
      data-testid="policy-approval-card"
      aria-label="Review policy approval"
      className="flex flex-col gap-2 rounded-lg border border-amber-300 p-4 text-sm dark:border-amber-700"
    >
      <p data-testid="policy-status" role="status" className="font-medium text-amber-900 dark:text-amber-200">
        Review policy: {summary}
      </p>
      {met ? (
        <p>The policy is met: the team lead&apos;s answer releases the plan.</p>
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
