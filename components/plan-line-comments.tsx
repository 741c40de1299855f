"use client";

import { useEffect, useRef, useState } from "react";

export type LineComment = { lineStart: number; lineEnd: number; body: string };
export type EarlierComment = LineComment & { version: number; quote: string; resolved: boolean };

const lineWords = (c: { lineStart: number; lineEnd: number }) =>
  c.lineStart === c.lineEnd ? `Line ${c.lineStart}` : `Lines ${c.lineStart}–${c.lineEnd}`;

/**
 * Comments on lines of the plan, as in a pull-request review: click a line number (Shift+click for a range),
 * write the comment, add it; many comments make one review, sent with the decision.
 */
export function PlanLineComments({
  markdown,
  comments,
  onChange,
}: {
  markdown: string;
  comments: LineComment[];
  onChange: (next: LineComment[]) => void;
}) {
  const lines = markdown.split("\n");
  const [range, setRange] = useState<{ start: number; end: number } | null>(null);
  const [draft, setDraft] = useState("");
  // The comment box takes the focus whenever a line or a range is picked, so what is typed next lands in it.
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (range) box.current?.focus();
  }, [range]);
  const pick = (n: number, extend: boolean) =>
    setRange((r) => (extend && r ? { start: Math.min(r.start, n), end: Math.max(r.start, n) } : { start: n, end: n }));
  const add = () => {
    if (!range || !draft.trim()) return;
    onChange([...comments, { lineStart: range.start, lineEnd: range.end, body: draft.trim() }]);
    setDraft("");
    setRange(null);
  };
  return (
    <div data-testid="plan-lines" className="mt-2">
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Click a line number to comment on it (Shift+click for a range).
      </p>
      <ol
        aria-label="Plan lines"
        tabIndex={0}
        className="mt-1 max-h-96 overflow-auto rounded border border-zinc-200 font-mono text-xs dark:border-zinc-800"
      >
        {lines.map((text, i) => {
          const n = i + 1;
          const selected = range !== null && n >= range.start && n <= range.end;
          const commented = comments.some((c) => n >= c.lineStart && n <= c.lineEnd);
          return (
            <li
              key={n}
              className={`flex gap-2 ${selected ? "bg-sky-100 dark:bg-sky-900/40" : commented ? "bg-amber-50 dark:bg-amber-900/20" : ""}`}
            >
              <button
                type="button"
                data-testid="plan-line"
                data-line={n}
                aria-pressed={selected}
                aria-label={`Comment on line ${n}`}
                onClick={(e) => pick(n, e.shiftKey)}
                className="w-10 shrink-0 select-none border-r border-zinc-200 pr-1 text-right text-zinc-600 hover:bg-zinc-100 dark:border-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-800"
              >
                {n}
              </button>
              <span className="whitespace-pre-wrap break-words">{text || " "}</span>
            </li>
          );
        })}
      </ol>
      {range ? (
        <div className="mt-2">
          <label htmlFor="line-comment" className="text-sm font-medium">
            Comment on {lineWords({ lineStart: range.start, lineEnd: range.end }).toLowerCase()}
          </label>
          <textarea
            id="line-comment"
            data-testid="line-comment"
            ref={box}
            rows={2}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            className="mt-1 w-full rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          />
          <div className="mt-1 flex gap-2">
            <button
              type="button"
              data-testid="add-comment"
              disabled={!draft.trim()}
              onClick={add}
              className="min-h-11 rounded bg-zinc-800 px-3 text-sm text-white disabled:opacity-50 dark:bg-zinc-200 dark:text-zinc-900"
            >
              Add comment
            </button>
            <button type="button" onClick={() => setRange(null)} className="min-h-11 rounded border px-3 text-sm">
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      <CommentList comments={comments} onRemove={(i) => onChange(comments.filter((_, j) => j !== i))} />
    </div>
  );
}

function CommentList({ comments, onRemove }: { comments: LineComment[]; onRemove: (index: number) => void }) {
  if (comments.length === 0) return null;
  return (
    <ul className="mt-2 flex flex-col gap-1 text-sm" aria-label="Your comments">
      {comments.map((c, i) => (
        <li
          key={`${c.lineStart}-${i}`}
          data-testid="pending-comment"
          className="flex items-start gap-2 rounded border border-amber-300 p-2 dark:border-amber-700"
        >
          <span className="shrink-0 font-mono text-xs">{lineWords(c)}</span>
          <span className="min-w-0 flex-1 whitespace-pre-wrap break-words">{c.body}</span>
          <button
            type="button"
            aria-label={`Remove the comment on ${lineWords(c).toLowerCase()}`}
            onClick={() => onRemove(i)}
            className="min-h-11 min-w-11 rounded border text-xs"
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Whether an earlier comment was resolved, and which version and lines it was on. */
function EarlierCommentHead({ c }: { c: EarlierComment }) {
  return (
    <>
      <span
        className={`mr-2 rounded px-1 text-xs ${c.resolved ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100" : "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"}`}
      >
        {c.resolved ? "resolved" : "not resolved"}
      </span>
      <span className="font-mono text-xs">
        v{c.version} {lineWords(c).toLowerCase()}
      </span>
    </>
  );
}

/** One earlier comment: resolved or not, where it was, what it quoted and said. */
export function EarlierCommentView({ c }: { c: EarlierComment }) {
  return (
    <span
      data-testid="earlier-comment"
      data-resolved={c.resolved}
      className="block rounded border border-amber-300 bg-white p-2 text-sm dark:border-amber-700 dark:bg-zinc-900"
    >
      <EarlierCommentHead c={c} />
      <span className="mt-1 block whitespace-pre-wrap break-words">{c.body}</span>
    </span>
  );
}

/** Earlier comments whose lines the diff does not show (they sit beside their lines otherwise). */
export function EarlierComments({ comments }: { comments: EarlierComment[] }) {
  if (comments.length === 0) return null;
  return (
    <ul
      data-testid="earlier-comments"
      aria-label="Comments on earlier versions"
      className="mt-2 flex flex-col gap-1 text-sm"
    >
      {comments.map((c, i) => (
        <li
          key={i}
          data-testid="earlier-comment"
          data-resolved={c.resolved}
          className="rounded border border-zinc-200 p-2 dark:border-zinc-800"
        >
          <EarlierCommentHead c={c} />
          <blockquote className="mt-1 border-l-2 pl-2 font-mono text-xs text-zinc-600 dark:text-zinc-400">
            {c.quote}
          </blockquote>
          <p className="mt-1 whitespace-pre-wrap break-words">{c.body}</p>
        </li>
      ))}
    </ul>
  );
}
