import { KEYS } from "../ui/views/shortcuts";
import type { Continuation } from "./pick-approval-mode";

/** A key pressed while a decision card is on the page, and where the focus was. */
export type CardKeyPress = {
  key: string;
  ctrl: boolean;
  meta: boolean;
  alt: boolean;
  /** The focus is inside this card: keys pressed elsewhere (the page, another card) are never this card's. */
  inCard: boolean;
  /** The data-testid of the text box holding the focus, when one does. */
  box?: string;
  /** The focus is in something a person types into. */
  typing: boolean;
};

export type CardKeyState = {
  noteOpen: boolean;
  /** A teammate's plan in its lead's mailbox: no approval shortcuts there. */
  lead: boolean;
  /** There is feedback (a note or a review) to send with Request changes. */
  canReject: boolean;
  /** The way on an approval takes when the person names none. */
  fallback: Continuation;
};

export type CardKeyAction =
  | { kind: "none" }
  | { kind: "close-note" }
  | { kind: "focus-card" }
  | { kind: "reject" }
  | { kind: "approve"; mode: Continuation }
  /** Opens the menu on a wider way on: Enter on it (a second stroke) approves. */
  | { kind: "offer"; mode: Continuation }
  | { kind: "open-note" };

/** How far each way on leaves the agent to act without asking: a key alone never approves into a wider one. */
const WIDTH: Record<Continuation, number> = { default: 0, acceptEdits: 1, auto: 2 };
const NONE = { action: { kind: "none" }, prevent: false } as const;

/**
 * What a key does in the decision card. Keys never decide by accident: 1, 2 pick a way to approve (one wider than
 * the mode before plan mode only opens the menu on it), 3 opens Request changes; Ctrl/Cmd+Enter sends the
 * feedback from the feedback box and approves from elsewhere in the card (a comment box keeps its own); Esc closes
 * an open box, keeping what was typed, and is never a decision.
 */
export function cardKeyAction(press: CardKeyPress, state: CardKeyState): { action: CardKeyAction; prevent: boolean } {
  if (!press.inCard) return NONE;
  if (press.key === "Escape") {
    if (state.noteOpen) return { action: { kind: "close-note" }, prevent: false };
    return press.box === "plan-editor" ? { action: { kind: "focus-card" }, prevent: false } : NONE;
  }
  if ((press.ctrl || press.meta) && press.key === "Enter") {
    if (press.box && press.box !== "plan-feedback" && press.box !== "plan-editor") return NONE;
    if (press.box === "plan-feedback")
      return { action: state.canReject ? { kind: "reject" } : { kind: "none" }, prevent: true };
    return { action: { kind: "approve", mode: state.fallback }, prevent: true };
  }
  if (state.lead || press.ctrl || press.meta || press.alt || press.typing) return NONE;
  const picked =
    press.key === KEYS.approveAcceptEdits ? "acceptEdits" : press.key === KEYS.approveReviewEdits ? "default" : null;
  if (picked)
    return {
      action:
        WIDTH[picked] > WIDTH[state.fallback] ? { kind: "offer", mode: picked } : { kind: "approve", mode: picked },
      prevent: false,
    };
  if (press.key === KEYS.requestChanges) return { action: { kind: "open-note" }, prevent: true };
  return NONE;
}
