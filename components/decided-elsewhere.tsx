"use client";

import { useEffect, useState } from "react";

export const openKey = (reviewId: string) => `plangate:review-open:${reviewId}`;
export const draftKey = (reviewId: string) => `plangate:review-draft:${reviewId}`;
export const sentKey = (reviewId: string) => `plangate:review-sent:${reviewId}`;

const WORDS: Record<string, string> = {
  approve: "Approved",
  reject: "Sent back to keep planning",
  abandon: "Set aside to chat",
  answered_elsewhere: "Answered in the agent's terminal",
};

/**
 * Shown where the decision card was when the review it showed was decided elsewhere (another tab, another
 * person): what was decided, and the feedback this tab had typed but not sent, kept for copying.
 */
export function DecidedElsewhere({ reviewId, decision }: { reviewId: string; decision: string }) {
  const [state, setState] = useState<{ draft: string | null } | null>(null);
  useEffect(() => {
    const wasOpen = sessionStorage.getItem(openKey(reviewId)) !== null;
    const sentHere = sessionStorage.getItem(sentKey(reviewId)) !== null;
    if (wasOpen && !sentHere) setState({ draft: sessionStorage.getItem(draftKey(reviewId)) });
  }, [reviewId]);
  if (state === null) return null;
  const dismiss = () => {
    for (const key of [openKey(reviewId), draftKey(reviewId)]) sessionStorage.removeItem(key);
    setState(null);
  };
  return (
    <section
      data-testid="decided-elsewhere"
      role="status"
      className="rounded-lg border border-sky-300 p-3 text-sm dark:border-sky-800"
    >
      <p className="font-medium">Decided in another tab: {WORDS[decision] ?? decision}</p>
      {state.draft ? (
        <div className="mt-2">
          <label htmlFor={`unsent-${reviewId}`} className="text-xs">
            Your unsent feedback (not sent):
          </label>
          <textarea
            id={`unsent-${reviewId}`}
            data-testid="unsent-feedback"
            readOnly
            value={state.draft}
            rows={3}
            className="mt-1 w-full rounded border p-2 text-sm dark:bg-zinc-950"
          />
        </div>
      ) : null}
      <button
        type="button"
        data-testid="dismiss-decided"
        onClick={dismiss}
        className="mt-2 min-h-11 rounded border px-3 text-sm"
      >
        Dismiss
      </button>
    </section>
  );
}
