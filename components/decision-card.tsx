"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { AgentReceives } from "@/lib/review/rules/agent-receives";
import { PlanFilesLine } from "./plan-files-line";
import type { WordDiffRow } from "@/lib/plan/views/word-diff";
import type { PlanThread } from "@/lib/review/anchor-threads";
import { type Continuation, DecisionActions } from "./decision-actions";
import { approvalChoices } from "@/lib/review/pick-approval-mode";
import { reviewSummary } from "./review-words";
import { draftKey, openKey, sentKey } from "./decided-elsewhere";
import { type BlockView, type NewComment, PlanReviewBlocks } from "./plan-review-blocks";
import type { ThreadAct } from "./plan-thread";
import { PlanVersionDiff } from "./plan-version-diff";
import { useOneShot } from "./use-one-shot";
import { cardKeyAction } from "@/lib/review/card-keys";

type Props = {
  reviewId: string;
  version: number;
  markdown: string;
  /** The plan rendered on the server block by block (sanitised Markdown): no Markdown code in the browser. */
  blocks: BlockView[];
  /** What changed since the version before, word by word (empty for the first). */
  changes: WordDiffRow[];
  autoAllowed: boolean;
  /** The mode the person was in before plan mode: the default way to go on after Approve. */
  prePlanMode?: string | null;
  /** Threads started on earlier versions: open beside their text, resolved, or outdated. */
  threads?: PlanThread[];
  /** A teammate's plan in its lead's mailbox: approve or send back, answered through the mailbox reply route. */
  lead?: { url: string; from: string };
  /** What the workspace's review policy still needs ("1 of 2 approvals · needs team db"), when it asks more than one approval. */
  policy?: string;
  /** The files the plan's items name (what a review policy judges it by). */
  files?: string[];
  /** The workspace the plan is about (its files open read-only from the card). */
  workspace?: string;
  /** An outside agent's plan: what that agent receives with an approval; the card offers only that. */
  receives?: AgentReceives | null;
  /** This reader's standing (the server's standingOf): Approve is enabled only when their approval would count. */
  standing?: { counts: boolean; reason: string };
  /** A review policy other than the plain one weighs this plan: an edit is sent back as a new version. */
  policyWeighed?: boolean;
};

const isTextField = (el: Element | null) =>
  el instanceof HTMLTextAreaElement ||
  el instanceof HTMLInputElement ||
  el instanceof HTMLSelectElement ||
  (el instanceof HTMLElement && el.isContentEditable);

const BUTTON = "min-h-11 rounded px-3 py-2 text-sm disabled:opacity-50";

/** How long a Set aside waits for an Undo before it is sent. */
const SET_ASIDE_MS = 5000;

/**
 * The plan-review question as a decision, the same card on the session page, the desk and a lead's mailbox.
 * Keys act only while the focus is in the card and never decide by accident (lib/review/card-keys.ts).
 */
export function DecisionCard({
  reviewId,
  version,
  markdown,
  blocks,
  changes,
  autoAllowed,
  prePlanMode,
  threads = [],
  lead,
  policy,
  files = [],
  receives = null,
  workspace,
  standing,
  policyWeighed = false,
}: Props) {
  const router = useRouter();
  const { send: sendOnce, busy, error } = useOneShot(() => router.refresh());
  // What the person typed for the agent: kept when the box closes, sent with Request changes or (as notes) Approve.
  const [note, setNote] = useState("");
  const [noteOpen, setNoteOpen] = useState(false);
  const [settingAside, setSettingAside] = useState(false);
  const [edited, setEdited] = useState<string | null>(null);
  const [comments, setComments] = useState<NewComment[]>([]);
  const [acts, setActs] = useState<Record<string, ThreadAct>>({});
  // Under a review policy applying suggestions sends the plan back as a new version: never the default.
  const [applyOn, setApplyOn] = useState(!policyWeighed);
  const [commentOpen, setCommentOpen] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ testId: string; at: number } | null>(null);
  // The same answer the server gives an approval without a mode (lib/review/pick-approval-mode).
  const { choices, fallback } = approvalChoices({
    prePlanMode,
    gates: { autoGateOpen: autoAllowed, bypassEnabled: false },
    approver: { by: lead ? "lead-person" : "person" },
    receives,
  });
  const card = useRef<HTMLElement>(null);
  const url = lead?.url ?? `/api/reviews/${reviewId}/decision`;
  // This tab's own decision is remembered, so the page that follows does not call it another tab's.
  const send = (body: unknown) => {
    sessionStorage.setItem(sentKey(reviewId), "1");
    return sendOnce(url, body);
  };
  const suggestions = comments.filter((c) => c.suggestion !== undefined).length;
  const threadActs = Object.entries(acts).flatMap(([id, a]) => {
    const reply = a.reply?.trim();
    return reply || a.resolve ? [{ id, ...(reply ? { reply } : {}), ...(a.resolve ? { resolve: true } : {}) }] : [];
  });
  const review = {
    ...(comments.length > 0 ? { comments } : {}),
    ...(threadActs.length > 0 ? { threads: threadActs } : {}),
  };
  const summary = reviewSummary(comments, acts);
  // What this approval would carry that the outside agent never receives: Approve waits until it is gone.
  const unreceived =
    receives !== null &&
    !receives.notesOnApproval &&
    (note.trim() !== "" ||
      threadActs.some((t) => t.reply !== undefined) ||
      comments.some((c) => c.body !== "" || c.suggestion === undefined || !applyOn || edited !== null));
  const withNote = note.trim() ? { feedback: note } : {};
  // The action row stays in its place while a box is open, so it never covers what is being typed.
  const boxOpen = noteOpen || edited !== null || Object.values(acts).some((a) => a.reply !== undefined) || commentOpen;
  const approve = (mode: Continuation) => {
    if (unreceived || standing?.counts === false) return;
    const applying = suggestions > 0 && applyOn && edited === null ? { applySuggestions: true } : {};
    const plan = edited !== null && edited !== markdown ? { plan: edited } : {};
    return send(
      lead
        ? { approve: true, mode: mode === "auto" ? "acceptEdits" : mode, ...plan, ...applying, ...review, ...withNote }
        : { decision: "approve", ...(choices.length ? { mode } : {}), ...plan, ...applying, ...review, ...withNote },
    );
  };
  // Request changes sends the overall feedback and the whole review together.
  const reject = () => send({ ...(lead ? { approve: false } : { decision: "reject" }), ...withNote, ...review });
  // Setting a review aside ends it for the agent: it waits a few seconds, with Undo, before it is sent.
  const abandonLater = useRef(() => send({ decision: "abandon" }));
  abandonLater.current = () => send({ decision: "abandon" });
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
      const { action, prevent } = cardKeyAction(
        {
          key: e.key,
          ctrl: e.ctrlKey,
          meta: e.metaKey,
          alt: e.altKey,
          inCard: card.current?.contains(target) === true,
          box: target instanceof HTMLTextAreaElement ? target.dataset.testid : undefined,
          typing: isTextField(target),
        },
        { noteOpen, lead: lead !== undefined, canReject: Boolean(note.trim() || summary), fallback },
      );
      if (prevent) e.preventDefault();
      if (action.kind === "close-note") setNoteOpen(false);
      if (action.kind === "close-note" || action.kind === "focus-card") card.current?.focus();
      else if (action.kind === "reject") void reject();
      else if (action.kind === "approve") void approve(action.mode);
      else if (action.kind === "open-note") setNoteOpen(true);
      else if (action.kind === "offer")
        setFocusRequest({
          testId: action.mode === "acceptEdits" ? "approve-accept-edits" : "approve-review-edits",
          at: Date.now(),
        });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

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
      <PlanFilesLine files={files} workspace={workspace ?? null} outside={receives !== null} />
      {receives ? (
        <p data-testid="agent-receives" className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">
          {receives.words}
        </p>
      ) : null}
      {edited === null ? (
        <PlanReviewBlocks
          markdown={markdown}
          blocks={blocks}
          threads={threads}
          comments={comments}
          onComments={setComments}
          acts={acts}
          onAct={(id, next) => setActs((all) => ({ ...all, [id]: next }))}
          onBoxOpen={setCommentOpen}
        />
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
      {changes.length > 0 ? (
        <details className="mt-3" data-testid="plan-diff" open>
          <summary className="cursor-pointer text-sm">Changes since version {version - 1}</summary>
          <div className="mt-2">
            <PlanVersionDiff rows={changes} label={`Changes from version ${version - 1} to ${version}`} />
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
          <p data-testid="send-summary" className="mt-1 text-xs text-zinc-700 dark:text-zinc-300">
            You are sending: {[note.trim() ? "your feedback" : "", summary].filter(Boolean).join(", ") || "nothing yet"}{" "}
            · Request changes
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button
              type="button"
              data-testid="send-feedback"
              disabled={busy || (!note.trim() && !summary)}
              className={`${BUTTON} bg-zinc-800 text-white dark:bg-zinc-200 dark:text-zinc-900`}
              onClick={() => void reject()}
            >
              Send, request changes
            </button>
            <button type="button" disabled={busy} className={`${BUTTON} border`} onClick={() => setNoteOpen(false)}>
              Close
            </button>
          </div>
        </div>
      ) : null}
      {!noteOpen && note.trim() ? (
        <p data-testid="note-kept" className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
          Your note is kept: it goes with Approve (as notes for the agent) or with Request changes.{" "}
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
      <DecisionActions
        lead={lead !== undefined}
        fallback={fallback}
        choices={choices}
        blocked={
          standing?.counts === false
            ? standing.reason
            : unreceived && receives
              ? `${receives.label} does not receive notes with an approval: send them with Request changes, or remove them to approve.`
              : null
        }
        sendBackVersion={policyWeighed ? version + 1 : null}
        busy={busy}
        hasNote={note.trim().length > 0}
        boxOpen={boxOpen}
        summary={summary}
        suggestions={edited === null ? suggestions : 0}
        applySuggestions={applyOn}
        onApplySuggestions={setApplyOn}
        onApprove={(mode) => void approve(mode)}
        onRequestChanges={() => setNoteOpen(true)}
        editing={edited !== null}
        onToggleEdit={() => setEdited(edited === null ? markdown : null)}
        settingAside={settingAside}
        onSetAside={setSettingAside}
        focusRequest={focusRequest}
      />
    </section>
  );
}
