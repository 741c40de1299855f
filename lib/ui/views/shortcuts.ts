/**
 * Every keyboard shortcut, in one place: the handlers compare against KEYS and the shortcuts dialog lists
 * SHORTCUTS, so a key bound somewhere cannot be missing from the list (shortcuts.test.ts checks the components).
 */
export const KEYS = {
  help: "?",
  deskNext: "j",
  deskPrevious: "k",
  approveAcceptEdits: "1",
  approveReviewEdits: "2",
  requestChanges: "3",
  allowOnce: "o",
  allowAlways: "a",
  reject: "r",
  commands: "/",
} as const;

export type Shortcut = { keys: string; what: string };

/** The list as the dialog shows it, grouped by where each key acts (it acts only while the focus is there). */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: KEYS.help, what: "Show this list (anywhere outside a text field)" },
  { keys: `${KEYS.deskNext} / ${KEYS.deskPrevious}`, what: "Desk list: next / previous item (Enter opens it)" },
  { keys: KEYS.approveAcceptEdits, what: "Plan review: approve, auto-accept edits" },
  { keys: KEYS.approveReviewEdits, what: "Plan review: approve, review each edit" },
  { keys: KEYS.requestChanges, what: "Plan review: request changes (opens the feedback box)" },
  {
    keys: "Ctrl/Cmd+Enter",
    what: "Feedback box: send the feedback. Comment box: add the comment (the focus returns to the card). Plan editor or the card: approve (default choice)",
  },
  { keys: "Esc", what: "Close what is open (feedback box, comment box, editor, menu, this list). Never decides" },
  {
    keys: `${KEYS.allowOnce} / ${KEYS.allowAlways} / ${KEYS.reject}`,
    what: "Permission card: allow once / allow always / reject",
  },
  { keys: "↑ / ↓", what: "Open menu: previous / next item (Enter picks it)" },
  { keys: "Enter", what: "Message box: send (Shift+Enter: new line)" },
  { keys: "Shift+Tab", what: "Message box: next mode (Ask before edits → Auto-accept edits → Plan)" },
  { keys: KEYS.commands, what: "Message box: commands (/plan, /plan off, /compact, /verify); Tab completes" },
];

/** The names a handler may compare `event.key` with directly, and the words the list uses for them. */
export const NAMED_KEYS: Record<string, string> = {
  Escape: "Esc",
  Enter: "Enter",
  Tab: "Tab",
  ArrowDown: "↓",
  ArrowUp: "↑",
};
