"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";
import type { PlanThread } from "@/lib/review/anchor-threads";
import { blockWords, PlanThreadView, SuggestionView, type ThreadAct } from "./plan-thread";

/** A comment of this review: lines of the version shown, words, and optionally the text they should read instead. */
export type NewComment = { lineStart: number; lineEnd: number; body: string; suggestion?: string };
/** A block of the rendered plan (rendered on the server) and the source lines it came from. */
export type BlockView = { lineStart: number; lineEnd: number; node: ReactNode };

type Range = { start: number; end: number };
type Draft = { body: string; suggestion: string | null };

/**
 * The rendered plan as a pull request's review shows code: a comment button beside every block (Shift+click
 * another block's for a range), the comment box opening under the range it is about, this review's comments
 * and the threads of earlier versions beside the text they are about; outdated threads after the plan.
 */
export function PlanReviewBlocks({
  markdown,
  blocks,
  threads,
  comments,
  onComments,
  acts,
  onAct,
  onBoxOpen,
}: {
  markdown: string;
  blocks: BlockView[];
  threads: PlanThread[];
  comments: NewComment[];
  onComments: (next: NewComment[]) => void;
  acts: Record<string, ThreadAct>;
  onAct: (id: string, next: ThreadAct) => void;
  /** Told whether the comment box is open (the card keeps its action row from covering it). */
  onBoxOpen: (open: boolean) => void;
}) {
  const lines = markdown.split("\n");
  const [range, setRange] = useState<Range | null>(null);
  // What is typed in the comment box survives the range changing (the box moves under the new range's end).
  const [draft, setDraft] = useState<Draft>({ body: "", suggestion: null });
  // The comment just added takes the focus (inside the card), so the card's keys work at once, without a Tab back.
  const [added, setAdded] = useState<number | null>(null);
  const textOf = (r: { lineStart: number; lineEnd: number }) => lines.slice(r.lineStart - 1, r.lineEnd).join("\n");
  const boxOpen = range !== null;
  useEffect(() => onBoxOpen(boxOpen), [boxOpen, onBoxOpen]);
  const pick = (b: BlockView, extend: boolean) =>
    setRange((r) =>
      extend && r
        ? { start: Math.min(r.start, b.lineStart), end: Math.max(r.end, b.lineEnd) }
        : { start: b.lineStart, end: b.lineEnd },
    );
  const endsIn = (b: BlockView, line: number) => line >= b.lineStart && line <= b.lineEnd;
  const thread = (t: PlanThread) => (
    <PlanThreadView key={t.id} thread={t} act={acts[t.id] ?? {}} onAct={(next) => onAct(t.id, next)} />
  );
  const outdated = threads.filter((t) => t.at === null);
  return (
    <div data-testid="plan-markdown">
      <p className="mb-1 text-xs text-zinc-600 dark:text-zinc-400">
        Press + beside a part of the plan to comment on it or suggest new text (Shift+click for a range).
      </p>
      {blocks.map((b) => {
        const selected = range !== null && b.lineStart >= range.start && b.lineEnd <= range.end;
        return (
          <div
            key={b.lineStart}
            data-testid="plan-block"
            data-lines={`${b.lineStart}-${b.lineEnd}`}
            className={`group flex gap-1 rounded ${selected ? "bg-sky-50 dark:bg-sky-900/30" : ""}`}
          >
            <button
              type="button"
              data-testid="comment-block"
              aria-pressed={selected}
              aria-label={`Comment on ${blockWords(textOf(b))}`}
              onClick={(e) => pick(b, e.shiftKey)}
              className="mt-1 h-7 w-7 shrink-0 rounded border border-zinc-300 text-sm text-zinc-700 opacity-70 hover:opacity-100 focus:opacity-100 group-hover:opacity-100 dark:border-zinc-700 dark:text-zinc-300"
            >
              +
            </button>
            <div className="min-w-0 flex-1">
              <div className="markdown plan-block">{b.node}</div>
              {comments.map((c, i) =>
                endsIn(b, c.lineEnd) ? (
                  <PendingComment
                    key={`${c.lineStart}-${i}`}
                    c={c}
                    quote={textOf(c)}
                    focus={i === added}
                    onRemove={() => {
                      setAdded(null);
                      onComments(comments.filter((_, j) => j !== i));
                    }}
                  />
                ) : null,
              )}
              {threads.filter((t) => t.at !== null && endsIn(b, t.at.lineEnd)).map(thread)}
              {range && endsIn(b, range.end) ? (
                <CommentBox
                  key={`${range.start}-${range.end}`}
                  range={range}
                  quote={lines.slice(range.start - 1, range.end).join("\n")}
                  draft={draft}
                  onDraft={setDraft}
                  onAdd={(c) => {
                    setAdded(comments.length);
                    onComments([...comments, c]);
                    setDraft({ body: "", suggestion: null });
                    setRange(null);
                  }}
                  onClose={(discard) => {
                    if (discard) setDraft({ body: "", suggestion: null });
                    setRange(null);
                  }}
                />
              ) : null}
            </div>
          </div>
        );
      })}
      {outdated.length > 0 ? (
        <section aria-label="Outdated comments" data-testid="outdated-threads" className="mt-3">
          <h3 className="text-sm font-medium">On text no longer in this version</h3>
          {outdated.map(thread)}
        </section>
      ) : null}
    </div>
  );
}

function PendingComment({
  c,
  quote,
  focus,
  onRemove,
}: {
  c: NewComment;
  quote: string;
  focus: boolean;
  onRemove: () => void;
}) {
  const self = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) self.current?.focus();
  }, [focus]);
  return (
    <div
      ref={self}
      tabIndex={-1}
      data-testid="pending-comment"
      className="my-1 flex items-start gap-2 rounded border border-sky-300 bg-white p-2 font-sans text-sm outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-sky-700 dark:bg-zinc-900"
    >
      <div className="min-w-0 flex-1">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Your comment on {blockWords(quote)} (not sent yet)</p>
        {c.body ? <p className="whitespace-pre-wrap break-words">{c.body}</p> : null}
        {c.suggestion !== undefined ? <SuggestionView quote={quote} suggestion={c.suggestion} /> : null}
      </div>
      <button
        type="button"
        aria-label={`Remove your comment on ${blockWords(quote)}`}
        onClick={onRemove}
        className="min-h-11 min-w-11 rounded border text-xs"
      >
        ×
      </button>
    </div>
  );
}

/** The comment box, under the lines it is about; Ctrl/Cmd+Enter adds the comment, Esc closes it. */
function CommentBox({
  range,
  quote,
  draft: { body: draft, suggestion },
  onDraft,
  onAdd,
  onClose,
}: {
  range: Range;
  quote: string;
  draft: Draft;
  onDraft: (next: Draft) => void;
  onAdd: (c: NewComment) => void;
  /** Closes the box; `discard` also drops what was typed (Esc keeps it for the next box). */
  onClose: (discard: boolean) => void;
}) {
  const setDraft = (body: string) => onDraft({ body, suggestion });
  const setSuggestion = (next: string | null) => onDraft({ body: draft, suggestion: next });
  const box = useRef<HTMLTextAreaElement>(null);
  // The box is keyed by its range, so it mounts, and takes the focus, whenever a block or a range is picked:
  // what is typed next lands in it (the draft itself lives above, so nothing typed is lost).
  useEffect(() => {
    box.current?.focus();
  }, []);
  const where = { lineStart: range.start, lineEnd: range.end };
  const ready = draft.trim().length > 0 || suggestion !== null;
  const add = () => {
    if (ready) onAdd({ ...where, body: draft.trim(), ...(suggestion !== null ? { suggestion } : {}) });
  };
  const keys = (e: React.KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
      e.preventDefault();
      // The focus moves to the comment added, inside the card: the card's own Ctrl+Enter (approve) must not see this.
      e.stopPropagation();
      add();
    } else if (e.key === "Escape") {
      e.stopPropagation();
      onClose(false);
    }
  };
  return (
    <div
      className="my-2 rounded border border-sky-400 bg-white p-2 font-sans dark:bg-zinc-900"
      data-testid="comment-box"
    >
      <label htmlFor="line-comment" className="text-sm font-medium">
        Comment on {blockWords(quote)}{" "}
        <span className="font-normal text-zinc-600 dark:text-zinc-400">(Ctrl/Cmd+Enter adds it)</span>
      </label>
      <textarea
        id="line-comment"
        data-testid="line-comment"
        ref={box}
        rows={2}
        value={draft}
        onKeyDown={keys}
        onChange={(e) => setDraft(e.target.value)}
        className="mt-1 w-full scroll-mb-40 rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
      />
      {suggestion !== null ? (
        <>
          <label htmlFor="suggestion-text" className="text-sm font-medium">
            These lines should read
          </label>
          <textarea
            id="suggestion-text"
            data-testid="suggestion-text"
            rows={Math.min(8, quote.split("\n").length + 1)}
            value={suggestion}
            onKeyDown={keys}
            onChange={(e) => setSuggestion(e.target.value)}
            className="mt-1 w-full scroll-mb-40 rounded border border-zinc-300 p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
          />
        </>
      ) : null}
      <div className="mt-1 flex flex-wrap gap-2">
        <button
          type="button"
          data-testid="add-comment"
          disabled={!ready}
          onClick={add}
          className="min-h-11 rounded bg-zinc-800 px-3 text-sm text-white disabled:opacity-50 dark:bg-zinc-200 dark:text-zinc-900"
        >
          {suggestion !== null ? "Add suggestion" : "Add comment"}
        </button>
        <button
          type="button"
          data-testid="suggest-change"
          aria-pressed={suggestion !== null}
          onClick={() => setSuggestion(suggestion === null ? quote : null)}
          className="min-h-11 rounded border px-3 text-sm"
        >
          {suggestion === null ? "Suggest new text" : "No suggestion"}
        </button>
        <button type="button" onClick={() => onClose(true)} className="min-h-11 rounded border px-3 text-sm">
          Discard
        </button>
      </div>
    </div>
  );
}
