"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { DiffView } from "./diff-view";
import { draftKey, openKey, sentKey } from "./decided-elsewhere";
import { NotifyOptIn } from "./notify-opt-in";
import {
  EarlierCommentView,
  EarlierComments,
  PlanLineComments,
  type EarlierComment,
  type LineComment,
} from "./plan-line-comments";
import { useOneShot } from "./use-one-shot";

type Continuation = "acceptEdits" | "default" | "auto";

type Props = {
  reviewId: string;
  version: number;
  markdown: string;
  /** The plan rendered on the server (sanitised Markdown), so the card needs no Markdown code in the browser. */
  rendered: ReactNode;
  diff: string;
  autoAllowed: boolean;
  /** The mode the person was in before plan mode: the default way to go on after Approve. */
  prePlanMode?: string | null;
  /** Comments made on earlier versions of this plan, marked resolved or not. */
  earlier?: EarlierComment[];
  /** A teammate's plan in its lead's mailbox: approve or send back, answered through the mailbox reply route. */
  lead?: { url: string; from: string };
  /** What the workspace's review policy still needs ("1 of 2 approvals · needs team db"), when it asks more than one approval. */
  policy?: string;
  /** The files the plan's items name (what a review policy judges it by). */
  files?: string[];
};

/** The default continuation: back to the mode plan mode was entered from (Ask before edits when unknown). */
export function defaultContinuation(prePlanMode: string | null | undefined, autoAllowed: boolean): Continuation {
  if (prePlanMode === "acceptEdits" || prePlanMode === "bypassPermissions") return "acceptEdits";
  if (prePlanMode === "auto" && autoAllowed) return "auto";
  return "default";
}

const lastLine = (quote: string) => quote.split("\n").at(-1) ?? "";

const isTextField = (el: Element | null) =>
  el instanceof HTMLTextAreaElement ||
  el instanceof HTMLInputElement ||
  el instanceof HTMLSelectElement ||
  (el instanceof HTMLElement && el.isContentEditable);

const BUTTON = "min-h-11 rounded px-3 py-2 text-sm disabled:opacity-50";

/** How long a Set aside waits for an Undo before it is sent. */
const SET_ASIDE_MS = 5000;
/** How far each way on leaves the agent to act without asking: a key alone never approves into a wider one. */
const WIDTH: Record<Continuation, number> = { default: 0, acceptEdits: 1, auto: 2 };

/**
 * The plan-review question as a decision. Keys act on what has focus and never decide by accident: 1, 2, 3
 * pick the options shown on the buttons (not while typing); Ctrl/Cmd+Enter sends the feedback from the
 * feedback box and approves from the plan editor or the card; Esc only closes the open editor or feedback box.
 * "Chat about it" (setting the review aside) takes a click.
 */
export function DecisionCard({
  reviewId,
  version,
  markdown,
  rendered,
  diff,
  autoAllowed,
  prePlanMode,
  earlier = [],
  lead,
  policy,
  files = [],
}: Props) {
  const router = useRouter();
  const { send: sendOnce, busy, error } = useOneShot(() => router.refresh());
  // What the person typed for the agent: kept when the box closes, sent with Keep planning or (as notes) with Approve.
  const [note, setNote] = useState("");
  const [noteOpen, setNoteOpen] = useState(false);
  const [settingAside, setSettingAside] = useState(false);
  const [edited, setEdited] = useState<string | null>(null);
  const [comments, setComments] = useState<LineComment[]>([]);
  const [commenting, setCommenting] = useState(false);
  const withComments = comments.length > 0 ? { comments } : {};
  // Earlier comments sit beside the line they ended on when the diff shows it; the rest are listed under it.
  const diffLines = new Set(
    diff
      .split("\n")
      .filter((l) => /^[- ]/.test(l) && !l.startsWith("---"))
      .map((l) => l.slice(1)),
  );
  const anchored = earlier.filter((c) => diffLines.has(lastLine(c.quote)));
  const floating = earlier.filter((c) => !diffLines.has(lastLine(c.quote)));
  const fallback = defaultContinuation(prePlanMode, autoAllowed);
  const card = useRef<HTMLElement>(null);
  const base = lead?.url ?? `/api/reviews/${reviewId}/decision`;
  // This tab's own decision is remembered, so the page that follows does not call it another tab's.
  const send = (url: string, body: unknown) => {
    sessionStorage.setItem(sentKey(reviewId), "1");
    return sendOnce(url, body);
  };
  const url = base;
  const plan = edited !== null && edited !== markdown ? { plan: edited } : {};
  // The lead's card is the same desk, answered through the mailbox (approve: true/false instead of a decision).
  const withNote = note.trim() ? { feedback: note } : {};
  // The action bar follows the reader down a long plan, but never over an open box: then it stays in its place.
  const boxOpen = noteOpen || commenting || edited !== null;
  const approve = (mode: Continuation) =>
    send(
      url,
      lead
        ? { approve: true, mode: mode === "auto" ? "acceptEdits" : mode, ...plan, ...withComments, ...withNote }
        : { decision: "approve", mode, ...plan, ...withComments, ...withNote },
    );
  // Keep planning sends the overall feedback and every line comment together, as one review.
  const reject = (text: string) =>
    send(url, {
      ...(lead ? { approve: false } : { decision: "reject" }),
      ...(text.trim() ? { feedback: text } : {}),
      ...withComments,
    });
  const abandon = () => send(url, { decision: "abandon" });
  // Setting a review aside ends it for the agent: it waits a few seconds, with Undo, before it is sent.
  const abandonLater = useRef(abandon);
  abandonLater.current = abandon;
  useEffect(() => {
    if (!settingAside) return;
    const timer = setTimeout(() => void abandonLater.current(), SET_ASIDE_MS);
    return () => clearTimeout(timer);
  }, [settingAside]);

  // A waiting decision is impossible to miss: it scrolls into view and takes the focus when it appears.
  useEffect(() => {
    if (lead) return;
    sessionStorage.setItem(openKey(reviewId), "1");
    card.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    card.current?.focus({ preventScroll: true });
  }, [reviewId, lead]);

  // Unsent feedback survives another tab deciding first: that tab's decision then shows it for copying.
  useEffect(() => {
    if (note) sessionStorage.setItem(draftKey(reviewId), note);
  }, [note, reviewId]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = document.activeElement;
      // Keys act only where the focus is: in this card. A key pressed on the page, or in another card, is not ours.
      if (card.current?.contains(target) !== true) return;
      if (e.key === "Escape") {
        // Closes what is open, keeping what was typed; never a decision.
        if (noteOpen) {
          setNoteOpen(false);
          card.current?.focus();
        } else if (edited !== null && target instanceof HTMLTextAreaElement && target.id === "plan-editor")
          card.current?.focus();
        return;
      }
      if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
        e.preventDefault();
        if (target instanceof HTMLTextAreaElement && target.dataset.testid === "plan-feedback") {
          if (note.trim() || comments.length > 0) void reject(note);
        } else void approve(fallback);
        return;
      }
      if (lead || e.ctrlKey || e.metaKey || e.altKey || isTextField(target)) return;
      const picked = e.key === "1" ? "acceptEdits" : e.key === "2" ? "default" : null;
      if (picked) {
        // One stroke never approves into more than the mode before plan mode: a wider choice takes the focus, and
        // Enter (a second stroke, on a button that says what it does) approves.
        if (WIDTH[picked] > WIDTH[fallback])
          card.current?.querySelector<HTMLButtonElement>(`[data-continuation="${picked}"]`)?.focus();
        else void approve(picked);
      } else if (e.key === "3") {
        e.preventDefault();
        setNoteOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  // The option matching the mode plan mode was entered from is the default (marked, and Ctrl/Cmd+Enter).
  const option = (key: string | null, label: string, continuation: Continuation, testId: string) => (
    <button
      type="button"
      data-continuation={continuation}
      data-testid={testId}
      data-default={continuation === fallback}
      disabled={busy}
      onClick={() => void approve(continuation)}
      aria-keyshortcuts={key ?? undefined}
      className={`${BUTTON} font-medium ${continuation === fallback ? "bg-emerald-800 text-white" : "border border-emerald-800 text-emerald-900 dark:text-emerald-200"}`}
    >
      {key ? <kbd className="mr-1 rounded border border-current px-1 text-xs">{key}</kbd> : null}
      {note.trim() ? `${label}, with your note` : label}
    </button>
  );

  return (
    <section
      ref={card}
      tabIndex={-1}
      data-testid="decision-card"
      data-review-id={reviewId}
      aria-labelledby={`decision-title-${reviewId}`}
      className="rounded-lg border border-amber-300 bg-white p-3 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-amber-500 sm:p-4 dark:border-amber-700 dark:bg-zinc-900"
    >
      <header className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`decision-title-${reviewId}`} className="font-semibold">
          {lead ? `Plan from ${lead.from}` : "Plan awaiting review"}
        </h2>
        <span data-testid="plan-version" className="text-xs text-zinc-600 dark:text-zinc-400">
          version {version}
        </span>
      </header>
      {policy ? (
        <p
          data-testid="policy-status"
          role="status"
          className="mb-3 text-sm font-medium text-amber-900 dark:text-amber-200"
        >
          Review policy: {policy}
        </p>
      ) : null}
      {files.length > 0 ? (
        <p data-testid="plan-files" className="mb-3 text-xs text-zinc-700 dark:text-zinc-300">
          Touches {files.length === 1 ? "1 file" : `${files.length} files`}:{" "}
          {files.map((f, i) => (
            <span key={f}>
              {i > 0 ? ", " : ""}
              <code>{f}</code>
            </span>
          ))}
        </p>
      ) : null}
      {lead ? null : <NotifyOptIn />}
      {commenting && edited === null ? (
        <PlanLineComments markdown={markdown} comments={comments} onChange={setComments} />
      ) : edited === null ? (
        rendered
      ) : (
        <div>
          <label htmlFor="plan-editor" className="text-sm font-medium">
            Edit the plan (Markdown); Approve sends your version
          </label>
          <textarea
            id="plan-editor"
            data-testid="plan-editor"
            className="mt-1 h-72 w-full rounded border border-zinc-300 p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
            value={edited}
            onChange={(e) => setEdited(e.target.value)}
          />
        </div>
      )}
      {diff ? (
        <details className="mt-3" data-testid="plan-diff" open>
          <summary className="cursor-pointer text-sm">Changes since version {version - 1}</summary>
          <div className="mt-2">
            <DiffView
              diff={diff}
              label={`Changes from version ${version - 1} to ${version}`}
              testId="plan-diff-lines"
              notes={anchored.map((c) => ({ line: lastLine(c.quote), content: <EarlierCommentView c={c} /> }))}
            />
            <EarlierComments comments={floating} />
          </div>
        </details>
      ) : null}
      {noteOpen ? (
        <div className="mt-3">
          <label htmlFor={`plan-feedback-${reviewId}`} className="text-sm font-medium">
            What should change?{" "}
            <span className="font-normal text-zinc-600 dark:text-zinc-400">(Ctrl/Cmd+Enter sends it)</span>
          </label>
          <textarea
            id={`plan-feedback-${reviewId}`}
            data-testid="plan-feedback"
            autoFocus
            className="mt-1 w-full rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            rows={3}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <div className="mt-2 flex flex-wrap gap-2">
            <button
              type="button"
              data-testid="send-feedback"
              disabled={busy || (!note.trim() && comments.length === 0)}
              className={`${BUTTON} bg-zinc-800 text-white dark:bg-zinc-200 dark:text-zinc-900`}
              onClick={() => void reject(note)}
            >
              Send feedback
            </button>
            <button type="button" disabled={busy} className={`${BUTTON} border`} onClick={() => setNoteOpen(false)}>
              Close
            </button>
          </div>
        </div>
      ) : null}
      {!noteOpen && note.trim() ? (
        <p data-testid="note-kept" className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
          Your note is kept: it goes with Approve (as notes for the agent) or with Keep planning.{" "}
          <button type="button" className="underline" onClick={() => setNoteOpen(true)}>
            Show it
          </button>
        </p>
      ) : null}
      {error ? (
        <p role="alert" data-testid="decision-error" className="mt-3 text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
      <div
        data-testid="decision-actions"
        data-sticky={boxOpen ? "no" : "yes"}
        className={`${boxOpen ? "" : "sticky bottom-0"} -mx-3 mt-4 flex flex-wrap items-center gap-2 border-t border-zinc-200 bg-white px-3 py-2 sm:-mx-4 sm:px-4 dark:border-zinc-800 dark:bg-zinc-900`}
      >
        {lead ? (
          <>
            <button
              type="button"
              data-testid="approve"
              disabled={busy}
              onClick={() => void approve("acceptEdits")}
              className={`${BUTTON} bg-emerald-800 font-medium text-white`}
            >
              {note.trim() ? "Approve with your note, auto-accept its edits" : "Approve, auto-accept its edits"}
            </button>
            <button
              type="button"
              data-testid="approve-review-edits"
              disabled={busy}
              onClick={() => void approve("default")}
              className={`${BUTTON} border border-emerald-800 font-medium text-emerald-900 dark:text-emerald-200`}
            >
              {note.trim() ? "Approve with your note, its edits ask" : "Approve, its edits ask"}
            </button>
          </>
        ) : (
          <>
            {option("1", "Approve, auto-accept edits", "acceptEdits", "approve-accept-edits")}
            {option("2", "Approve, review each edit", "default", "approve-review-edits")}
            {autoAllowed ? option(null, "Approve in auto mode", "auto", "approve-auto") : null}
          </>
        )}
        <button
          type="button"
          data-testid="keep-planning"
          disabled={busy}
          onClick={() => setNoteOpen(true)}
          aria-keyshortcuts={lead ? undefined : "3"}
          className={`${BUTTON} border`}
        >
          {lead ? null : <kbd className="mr-1 rounded border border-current px-1 text-xs">3</kbd>}
          Keep planning
        </button>
        <button
          type="button"
          data-testid="comment-lines"
          disabled={busy || edited !== null}
          aria-pressed={commenting}
          onClick={() => setCommenting(!commenting)}
          className={`${BUTTON} border`}
        >
          {commenting ? "Show the plan" : `Comment on lines${comments.length ? ` (${comments.length})` : ""}`}
        </button>
        <button
          type="button"
          data-testid="edit-plan"
          disabled={busy}
          aria-pressed={edited !== null}
          onClick={() => setEdited(edited === null ? markdown : null)}
          className={`${BUTTON} border`}
        >
          {edited === null ? "Edit plan" : "Discard edits"}
        </button>
        {lead ? null : settingAside ? (
          <span data-testid="set-aside-pending" role="status" className="flex items-center gap-2 text-sm">
            Setting it aside…
            <button
              type="button"
              data-testid="undo-set-aside"
              onClick={() => setSettingAside(false)}
              className={`${BUTTON} border`}
            >
              Undo
            </button>
          </span>
        ) : (
          <button
            type="button"
            data-testid="chat-about-it"
            disabled={busy}
            onClick={() => setSettingAside(true)}
            className={`${BUTTON} border`}
          >
            Set aside, chat about it
          </button>
        )}
      </div>
    </section>
  );
}
