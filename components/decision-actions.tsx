"use client";

import { ActionMenu, type MenuItem } from "./action-menu";
import { Icon } from "./icons";
import { KEYS } from "@/lib/ui/views/shortcuts";

import type { Continuation } from "@/lib/review/pick-approval-mode";

export type { Continuation };

const BUTTON = "min-h-11 rounded px-3 py-2 text-sm disabled:opacity-50";

/** How each way of going on reads, for the person's own agent and for a teammate answered by its lead. */
const WORDS: Record<"own" | "lead", Record<Continuation, string>> = {
  own: { acceptEdits: "auto-accept edits", default: "review each edit", auto: "auto mode" },
  lead: { acceptEdits: "auto-accept its edits", default: "its edits ask", auto: "auto mode" },
};
const TEST_IDS: Record<Continuation, string> = {
  acceptEdits: "approve-accept-edits",
  default: "approve-review-edits",
  auto: "approve-auto",
};

/**
 * The card's one action row: Approve (into the mode from before plan mode; the other modes in its menu),
 * Request changes, and a menu for Edit plan and Set aside. At phone width it is a bottom sheet, except while a
 * box is open: then it stays in its place under the card, so it never covers what is being typed.
 */
export function DecisionActions(props: {
  lead: boolean;
  fallback: Continuation;
  choices: Continuation[];
  busy: boolean;
  /** Why Approve cannot be sent as the review stands (an outside agent would not receive part of it). */
  blocked: string | null;
  hasNote: boolean;
  boxOpen: boolean;
  summary: string;
  suggestions: number;
  /** Under a review policy: applying suggestions sends the plan back as this version (it needs the policy again). */
  sendBackVersion: number | null;
  applySuggestions: boolean;
  onApplySuggestions: (on: boolean) => void;
  onApprove: (mode: Continuation) => void;
  onRequestChanges: () => void;
  editing: boolean;
  onToggleEdit: () => void;
  settingAside: boolean;
  onSetAside: (on: boolean) => void;
  focusRequest: { testId: string; at: number } | null;
}) {
  const words = WORDS[props.lead ? "lead" : "own"];
  const withNote = props.hasNote && !props.blocked ? " with your note" : "";
  const approveOff = props.busy || props.blocked !== null;
  const sendingBack = props.sendBackVersion !== null && props.suggestions > 0 && props.applySuggestions;
  const shortcut = (c: Continuation) =>
    props.lead
      ? undefined
      : c === "acceptEdits"
        ? KEYS.approveAcceptEdits
        : c === "default"
          ? KEYS.approveReviewEdits
          : undefined;
  const modes: MenuItem[] = props.choices.map((c) => ({
    label: `Approve${withNote}, ${words[c]}${c === props.fallback ? " (as before plan mode)" : ""}`,
    testId: TEST_IDS[c],
    onSelect: () => props.onApprove(c),
    disabled: approveOff,
    ...(shortcut(c) ? { shortcut: shortcut(c) } : {}),
    attrs: { "data-continuation": c, "data-default": c === props.fallback },
  }));
  const more: MenuItem[] = [
    {
      label: props.editing ? "Discard edits" : "Edit plan",
      testId: "edit-plan",
      onSelect: props.onToggleEdit,
      disabled: props.busy,
    },
    ...(props.lead
      ? []
      : [
          {
            label: "Set aside, chat about it",
            testId: "chat-about-it",
            onSelect: () => props.onSetAside(true),
            disabled: props.busy,
          },
        ]),
  ];
  const sheet = !props.lead && !props.boxOpen;
  return (
    <>
      {sheet ? <div aria-hidden="true" className="h-28 sm:hidden" /> : null}
      <div
        data-testid="decision-actions"
        data-sticky={props.boxOpen ? "no" : "yes"}
        data-sheet={sheet ? "yes" : "no"}
        className={`${sheet ? "fixed inset-x-0 bottom-0 z-10 shadow-[0_-2px_8px_rgba(0,0,0,0.12)] sm:sticky sm:inset-x-auto sm:-mx-4 sm:shadow-none" : props.boxOpen ? "-mx-3 sm:-mx-4" : "sticky bottom-0 -mx-3 sm:-mx-4"} mt-4 flex flex-col gap-2 border-t border-zinc-200 bg-white px-3 py-2 sm:px-4 dark:border-zinc-800 dark:bg-zinc-900`}
      >
        {props.summary ? (
          <p data-testid="review-summary" className="text-xs text-zinc-700 dark:text-zinc-300">
            Your review: {props.summary}
          </p>
        ) : null}
        {props.blocked ? (
          <p data-testid="approve-blocked" role="status" className="text-xs text-amber-900 dark:text-amber-200">
            {props.blocked}
          </p>
        ) : null}
        {props.suggestions > 0 ? (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="apply-suggestions"
              checked={props.applySuggestions}
              onChange={(e) => props.onApplySuggestions(e.target.checked)}
            />
            {props.sendBackVersion !== null
              ? `Apply your ${props.suggestions === 1 ? "suggestion" : `${props.suggestions} suggestions`} and send back as version ${props.sendBackVersion} (it needs the review policy again)`
              : `Apply your ${props.suggestions === 1 ? "suggestion" : `${props.suggestions} suggestions`} to the plan when you approve`}
          </label>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <div className="flex" role="group" aria-label="Approve">
            <button
              type="button"
              data-testid="approve"
              data-continuation={props.fallback}
              disabled={approveOff}
              onClick={() => props.onApprove(props.fallback)}
              className={`${BUTTON} ${modes.length > 0 ? "rounded-r-none" : ""} bg-emerald-800 font-medium text-white`}
            >
              {sendingBack ? (
                `Apply and send back as version ${props.sendBackVersion}`
              ) : (
                <>
                  Approve{withNote}
                  {modes.length > 0 ? (
                    <span className="hidden font-normal sm:inline">, {words[props.fallback]}</span>
                  ) : null}
                </>
              )}
            </button>
            {modes.length > 0 ? (
              <ActionMenu
                label={<Icon name="down" />}
                testId="approve-options"
                ariaLabel="Other ways to approve"
                items={modes}
                disabled={approveOff}
                focusRequest={props.focusRequest}
                className={`${BUTTON} rounded-l-none border-l border-emerald-600 bg-emerald-800 text-white`}
              />
            ) : null}
          </div>
          <button
            type="button"
            data-testid="keep-planning"
            disabled={props.busy}
            onClick={props.onRequestChanges}
            aria-keyshortcuts={props.lead ? undefined : KEYS.requestChanges}
            className={`${BUTTON} border`}
          >
            {props.lead ? null : (
              <kbd className="mr-1 hidden rounded border border-current px-1 text-xs sm:inline">
                {KEYS.requestChanges}
              </kbd>
            )}
            Request changes
          </button>
          {props.settingAside ? (
            <span data-testid="set-aside-pending" role="status" className="flex items-center gap-2 text-sm">
              Setting it aside…
              <button
                type="button"
                data-testid="undo-set-aside"
                onClick={() => props.onSetAside(false)}
                className={`${BUTTON} border`}
              >
                Undo
              </button>
            </span>
          ) : (
            <ActionMenu
              label="More…"
              testId="more-actions"
              items={more}
              disabled={props.busy}
              className={`${BUTTON} border`}
            />
          )}
        </div>
      </div>
    </>
  );
}
