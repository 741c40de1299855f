"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { DiffView } from "./diff-view";
import { useOneShot } from "./use-one-shot";

type Props = {
  reviewId: string;
  version: number;
  markdown: string;
  /** The plan rendered on the server (sanitised Markdown), so the card needs no Markdown code in the browser. */
  rendered: ReactNode;
  diff: string;
  autoAllowed: boolean;
  /** A teammate's plan in its lead's mailbox: approve or send back, answered through the mailbox reply route. */
  lead?: { url: string; from: string };
};
type Continuation = "acceptEdits" | "default" | "auto";

/**
 * The plan-review question as a decision: Approve (and how to go on), Keep planning (feedback), Chat about
 * it (set the review aside), Edit plan (approve the edited text). Ctrl/Cmd+Enter approves, Esc chats.
 */
export function DecisionCard({ reviewId, version, markdown, rendered, diff, autoAllowed, lead }: Props) {
  const router = useRouter();
  const { send, busy, error } = useOneShot(() => router.refresh());
  const [feedback, setFeedback] = useState<string | null>(null);
  const [edited, setEdited] = useState<string | null>(null);
  const [mode, setMode] = useState<Continuation>("acceptEdits");
  const url = lead?.url ?? `/api/reviews/${reviewId}/decision`;
  const approve = () => (lead ? send(url, { approve: true }) : send(url, { decision: "approve", mode, ...(edited !== null && edited !== markdown ? { plan: edited } : {}) }));
  const reject = (text: string) => send(url, lead ? { approve: false, feedback: text } : { decision: "reject", feedback: text });
  const abandon = () => send(url, { decision: "abandon" });

  // Page-wide shortcuts belong to the one card of a session page; a mailbox lists several cards.
  useEffect(() => {
    if (lead) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
        e.preventDefault();
        void approve();
      } else if (e.key === "Escape" && feedback === null && edited === null) void abandon();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  return (
    <section data-testid="decision-card" data-review-id={reviewId} aria-labelledby={`decision-title-${reviewId}`} className="rounded-lg border border-amber-300 bg-white p-3 shadow-sm sm:p-4 dark:border-amber-700 dark:bg-zinc-900">
      <header className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`decision-title-${reviewId}`} className="font-semibold">
          {lead ? `Plan from ${lead.from}` : "Plan awaiting review"}
        </h2>
        <span data-testid="plan-version" className="text-xs text-zinc-600 dark:text-zinc-400">
          version {version}
        </span>
      </header>
      {edited === null ? (
        rendered
      ) : (
        <div>
          <label htmlFor="plan-editor" className="text-sm font-medium">
            Edit the plan (Markdown); Approve sends your version
          </label>
          <textarea id="plan-editor" data-testid="plan-editor" className="mt-1 h-72 w-full rounded border border-zinc-300 p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950" value={edited} onChange={(e) => setEdited(e.target.value)} />
        </div>
      )}
      {diff ? (
        <details className="mt-3" data-testid="plan-diff" open>
          <summary className="cursor-pointer text-sm">Changes since version {version - 1}</summary>
          <div className="mt-2">
            <DiffView diff={diff} label={`Changes from version ${version - 1} to ${version}`} testId="plan-diff-lines" />
          </div>
        </details>
      ) : null}
      {feedback !== null ? (
        <div className="mt-3">
          <label htmlFor={`plan-feedback-${reviewId}`} className="text-sm font-medium">
            What should change?
          </label>
          <textarea id={`plan-feedback-${reviewId}`} data-testid="plan-feedback" autoFocus className="mt-1 w-full rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950" rows={3} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
          <div className="mt-2 flex flex-wrap gap-2">
            <button type="button" data-testid="send-feedback" disabled={busy || !feedback.trim()} className="rounded bg-zinc-800 px-3 py-1.5 text-sm text-white disabled:opacity-50 dark:bg-zinc-200 dark:text-zinc-900" onClick={() => void reject(feedback)}>
              Send feedback
            </button>
            <button type="button" disabled={busy} className="rounded border px-3 py-1.5 text-sm" onClick={() => setFeedback(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {error ? (
        <p role="alert" data-testid="decision-error" className="mt-3 text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="button" data-testid="approve" disabled={busy} onClick={() => void approve()} title="Ctrl/Cmd+Enter" className="rounded bg-emerald-800 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-50">
          Approve
        </button>
        {lead ? null : (
          <>
            <label className="sr-only" htmlFor="continuation">
              After approval
            </label>
            <select id="continuation" data-testid="continuation" value={mode} onChange={(e) => setMode(e.target.value as Continuation)} className="min-w-0 max-w-full rounded border px-2 py-1.5 text-sm dark:bg-zinc-950">
              <option value="acceptEdits">and auto-accept edits</option>
              <option value="default">and approve edits manually</option>
              {autoAllowed ? <option value="auto">in auto mode</option> : null}
            </select>
          </>
        )}
        <button type="button" data-testid="keep-planning" disabled={busy} onClick={() => setFeedback(feedback ?? "")} className="rounded border px-3 py-1.5 text-sm">
          Keep planning
        </button>
        {lead ? null : (
          <>
            <button type="button" data-testid="edit-plan" disabled={busy} aria-pressed={edited !== null} onClick={() => setEdited(edited === null ? markdown : null)} className="rounded border px-3 py-1.5 text-sm">
              {edited === null ? "Edit plan" : "Discard edits"}
            </button>
            <button type="button" data-testid="chat-about-it" disabled={busy} onClick={() => void abandon()} title="Esc" className="rounded border px-3 py-1.5 text-sm">
              Chat about it
            </button>
          </>
        )}
      </div>
    </section>
  );
}
