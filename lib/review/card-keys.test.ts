import { describe, expect, it } from "vitest";
import { KEYS } from "../ui/views/shortcuts";
import { type CardKeyPress, type CardKeyState, cardKeyAction } from "./card-keys";

const press = (key: string, over: Partial<CardKeyPress> = {}): CardKeyPress => ({
  key,
  ctrl: false,
  meta: false,
  alt: false,
  inCard: true,
  typing: false,
  ...over,
});
const state = (over: Partial<CardKeyState> = {}): CardKeyState => ({
  noteOpen: false,
  lead: false,
  canReject: true,
  fallback: "default",
  ...over,
});

describe("what a key does in the decision card", () => {
  const cases: [string, CardKeyPress, CardKeyState, ReturnType<typeof cardKeyAction>][] = [
    // Keys pressed anywhere but in this card are not its own: never a decision.
    ["approve key outside the card", press(KEYS.approveReviewEdits, { inCard: false }), state(), none()],
    ["Ctrl+Enter outside the card", press("Enter", { ctrl: true, inCard: false }), state(), none()],
    [
      "approve key, pre-plan default",
      press(KEYS.approveReviewEdits),
      state(),
      act({ kind: "approve", mode: "default" }),
    ],
    // One stroke never approves into more than the mode before plan mode: it opens the menu on the wider one.
    ["wider key only offers", press(KEYS.approveAcceptEdits), state(), act({ kind: "offer", mode: "acceptEdits" })],
    [
      "same-width key approves",
      press(KEYS.approveAcceptEdits),
      state({ fallback: "acceptEdits" }),
      act({ kind: "approve", mode: "acceptEdits" }),
    ],
    ["typing a digit in a box", press(KEYS.approveReviewEdits, { typing: true }), state(), none()],
    ["with Alt", press(KEYS.approveReviewEdits, { alt: true }), state(), none()],
    ["in a lead's mailbox", press(KEYS.approveReviewEdits), state({ lead: true }), none()],
    ["request changes", press(KEYS.requestChanges), state(), act({ kind: "open-note" }, true)],
    ["Esc closes the note", press("Escape"), state({ noteOpen: true }), act({ kind: "close-note" })],
    [
      "Esc in the plan editor",
      press("Escape", { box: "plan-editor", typing: true }),
      state(),
      act({ kind: "focus-card" }),
    ],
    ["Esc elsewhere is nothing", press("Escape"), state(), none()],
    [
      "Ctrl+Enter approves the fallback",
      press("Enter", { ctrl: true }),
      state(),
      act({ kind: "approve", mode: "default" }, true),
    ],
    ["Cmd+Enter too", press("Enter", { meta: true }), state(), act({ kind: "approve", mode: "default" }, true)],
    [
      "Ctrl+Enter in the feedback box sends it",
      press("Enter", { ctrl: true, box: "plan-feedback", typing: true }),
      state({ noteOpen: true }),
      act({ kind: "reject" }, true),
    ],
    [
      "Ctrl+Enter in an empty feedback box sends nothing and approves nothing",
      press("Enter", { ctrl: true, box: "plan-feedback", typing: true }),
      state({ noteOpen: true, canReject: false }),
      act({ kind: "none" }, true),
    ],
    [
      "Ctrl+Enter in a comment box keeps its own meaning",
      press("Enter", { ctrl: true, box: "comment-body", typing: true }),
      state(),
      none(),
    ],
    [
      "Ctrl+Enter in the plan editor approves (the edited plan)",
      press("Enter", { ctrl: true, box: "plan-editor", typing: true }),
      state({ fallback: "acceptEdits" }),
      act({ kind: "approve", mode: "acceptEdits" }, true),
    ],
  ];
  it.each(cases)("%s", (_name, p, s, expected) => {
    expect(cardKeyAction(p, s)).toEqual(expected);
  });
});

function none() {
  return act({ kind: "none" });
}
function act(action: ReturnType<typeof cardKeyAction>["action"], prevent = false) {
  return { action, prevent };
}
