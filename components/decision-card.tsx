"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { PlanMarkdown } from "./plan-markdown";

type Props = { reviewId: string; version: number; markdown: string; diff: string; autoAllowed: boolean };
type Continuation = "acceptEdits" | "default" | "auto";

/** The plan-review question, rendered as a decision: Approve (how to go on), Keep planning, Chat about it. */
export function DecisionCard({ reviewId, version, markdown, diff, autoAllowed }: Props) {
  const router = useRouter();
  const sent = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<string | null>(null);
  const [mode, setMode] = useState<Continuation>("acceptEdits");

  // One-shot latch: a double click sends one decision; a failed send re-arms with the error shown.
  const decide = useCallback(
    async (body: Record<string, unknown>) => {
      if (sent.current) return;
      sent.current = true;
      setBusy(true);
      setError(null);
      const res = await fetch(`/api/reviews/${reviewId}/decision`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) {
        const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        setError(data?.error?.message ?? `The decision was not sent (${res.status}).`);
        sent.current = false;
        setBusy(false);
        return;
      }
      router.refresh();
    },
    [reviewId, router],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === "Enter") void decide({ decision: "approve", mode });
      else if (e.key === "Escape" && feedback === null) void decide({ decision: "abandon" });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [decide, mode, feedback]);

  return (
    <section data-testid="decision-card" aria-label="Plan review" className="rounded-lg border border-amber-300 bg-white p-4 shadow-sm dark:border-amber-700 dark:bg-zinc-900">
      <header className="mb-3 flex items-center justify-between gap-2">
        <h2 className="font-semibold">Plan awaiting review</h2>
        <span data-testid="plan-version" className="text-xs text-zinc-600 dark:text-zinc-400">
          version {version}
        </span>
      </header>
      <PlanMarkdown markdown={markdown} />
      {diff ? (
        <details className="mt-3" data-testid="plan-diff">
          <summary className="cursor-pointer text-sm">Changes since version {version - 1}</summary>
          <pre className="mt-2 overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">{diff}</pre>
        </details>
      ) : null}
      {feedback !== null ? (
        <div className="mt-3">
          <label htmlFor="plan-feedback" className="text-sm font-medium">
            What should change?
          </label>
          <textarea id="plan-feedback" data-testid="plan-feedback" className="mt-1 w-full rounded border p-2 text-sm" rows={3} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
          <button type="button" data-testid="send-feedback" disabled={busy || !feedback.trim()} className="mt-2 rounded bg-zinc-800 px-3 py-1.5 text-sm text-white disabled:opacity-50" onClick={() => void decide({ decision: "reject", feedback })}>
            Send feedback
          </button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" data-testid="decision-error" className="mt-3 text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="button" data-testid="approve" disabled={busy} onClick={() => void decide({ decision: "approve", mode })} className="rounded bg-emerald-700 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-50">
          Approve
        </button>
        <label className="sr-only" htmlFor="continuation">
          After approval
        </label>
        <select id="continuation" data-testid="continuation" value={mode} onChange={(e) => setMode(e.target.value as Continuation)} className="rounded border px-2 py-1.5 text-sm">
          <option value="acceptEdits">and auto-accept edits</option>
          <option value="default">and approve edits manually</option>
          {autoAllowed ? <option value="auto">in auto mode</option> : null}
        </select>
        <button type="button" data-testid="keep-planning" disabled={busy} onClick={() => setFeedback(feedback ?? "")} className="rounded border px-3 py-1.5 text-sm">
          Keep planning
        </button>
        <button type="button" data-testid="chat-about-it" disabled={busy} onClick={() => void decide({ decision: "abandon" })} className="rounded border px-3 py-1.5 text-sm">
          Chat about it
        </button>
      </div>
    </section>
  );
}
