"use client";

import type { PlanThread as Thread, ThreadComment } from "@/lib/review/anchor-threads";

/** What this review does to a thread: a reply, resolving it, or both (sent with the decision). */
export type ThreadAct = { reply?: string; resolve?: true };

/**
 * A part of the plan named as the reader sees it: its first words without Markdown's marks ("“Add a test for
 * paging…”"), never its source line numbers, which the rendered plan does not show.
 */
export function blockWords(quote: string, max = 48): string {
  const text = quote
    .split("\n")
    .map((l) =>
      l
        .replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+|\|)/, "")
        .replace(/[`*_~]|\|/g, " ")
        .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"),
    )
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return "this part of the plan";
  return `“${text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text}”`;
}

const CHIP = {
  open: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  resolved: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  outdated: "bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
} as const;

/** Proposed text for lines, shown as what goes and what comes in. */
export function SuggestionView({ quote, suggestion }: { quote: string; suggestion: string }) {
  return (
    <div
      data-testid="suggestion"
      className="mt-1 rounded border border-zinc-300 font-mono text-xs dark:border-zinc-700"
    >
      <p className="border-b border-zinc-300 px-2 py-0.5 font-sans text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
        Suggested change
      </p>
      {quote.split("\n").map((l, i) => (
        <p key={`d${i}`} className="diff-del whitespace-pre-wrap px-2">
          <span className="sr-only">remove: </span>- {l}
        </p>
      ))}
      {suggestion === ""
        ? null
        : suggestion.split("\n").map((l, i) => (
            <p key={`a${i}`} className="diff-add whitespace-pre-wrap px-2">
              <span className="sr-only">add: </span>+ {l}
            </p>
          ))}
    </div>
  );
}

function Entry({ c, quote }: { c: ThreadComment; quote: string }) {
  return (
    <li className="border-t border-zinc-200 py-1 first:border-t-0 dark:border-zinc-800">
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {c.author} · on version {c.version}
      </p>
      {c.body ? <p className="whitespace-pre-wrap break-words">{c.body}</p> : null}
      {c.suggestion !== null ? <SuggestionView quote={quote} suggestion={c.suggestion} /> : null}
    </li>
  );
}

/**
 * A thread started on an earlier version: its comments and replies, where it stands, and (unless resolved) a
 * reply box and Resolve, both sent with this review. What is typed in the reply box is kept by the card.
 */
export function PlanThreadView({
  thread,
  act,
  onAct,
}: {
  thread: Thread;
  act: ThreadAct;
  onAct: (next: ThreadAct) => void;
}) {
  const replying = act.reply !== undefined;
  const status = act.resolve ? "resolved" : thread.status;
  const head = (
    <>
      <span className={`mr-2 rounded px-1 text-xs ${CHIP[status]}`}>{act.resolve ? "resolving" : status}</span>
      <span className="text-xs text-zinc-600 dark:text-zinc-400">
        started on version {thread.version}, on {blockWords(thread.quote)}
        {thread.status === "resolved" && thread.resolvedBy ? ` · resolved by ${thread.resolvedBy}` : ""}
      </span>
    </>
  );
  const body = (
    <>
      {thread.status === "outdated" ? (
        <blockquote className="mt-1 border-l-2 pl-2 font-mono text-xs text-zinc-700 dark:text-zinc-300">
          {thread.quote}
        </blockquote>
      ) : null}
      <ul className="mt-1">
        {thread.comments.map((c) => (
          <Entry key={c.id} c={c} quote={thread.quote} />
        ))}
      </ul>
    </>
  );
  if (thread.status === "resolved")
    return (
      <details
        data-testid="thread"
        data-status="resolved"
        className="my-1 rounded border border-zinc-200 p-2 text-sm dark:border-zinc-800"
      >
        <summary className="cursor-pointer">{head}</summary>
        {body}
      </details>
    );
  return (
    <div
      data-testid="thread"
      data-status={thread.status}
      data-resolving={act.resolve === true}
      className="my-1 rounded border border-amber-300 bg-white p-2 font-sans text-sm dark:border-amber-700 dark:bg-zinc-900"
    >
      {head}
      {body}
      {replying ? (
        <div className="mt-1">
          <label htmlFor={`reply-${thread.id}`} className="text-xs font-medium">
            Your reply (sent with your review)
          </label>
          <textarea
            id={`reply-${thread.id}`}
            data-testid="thread-reply"
            rows={2}
            autoFocus
            value={act.reply ?? ""}
            onChange={(e) => onAct({ ...act, reply: e.target.value })}
            className="mt-1 w-full rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          />
        </div>
      ) : null}
      <div className="mt-1 flex flex-wrap gap-2">
        {replying ? null : (
          <button
            type="button"
            data-testid="thread-reply-open"
            onClick={() => onAct({ ...act, reply: "" })}
            className="min-h-11 rounded border px-3 text-sm"
          >
            Reply
          </button>
        )}
        <button
          type="button"
          data-testid="resolve-thread"
          aria-pressed={act.resolve === true}
          onClick={() => onAct(act.resolve ? (({ resolve: _, ...rest }) => rest)(act) : { ...act, resolve: true })}
          className="min-h-11 rounded border px-3 text-sm"
        >
          {act.resolve ? "Keep it open" : "Resolve"}
        </button>
      </div>
    </div>
  );
}
