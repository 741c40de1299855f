import { describe, expect, it } from "vitest";
import type { Mode } from "../session/log/events";
import { applyEvent, emptyState } from "../session/log/fold";
import { approvalModeEvents, approvalQueued } from "./approval-mode-events";
import { transitionEvents } from "../plan/mode-choice";

const OPEN = { autoGateOpen: true, bypassEnabled: true };
const SHUT = { autoGateOpen: false, bypassEnabled: false };

type Row = {
  name: string;
  mode: Mode;
  prePlanMode: Mode | null;
  turn: boolean;
  outside: boolean;
  gates: typeof OPEN;
  requested?: Mode;
  want: { type: "mode.queued" | "mode.changed" | null; mode: Mode; cause?: string };
};

const rows: Row[] = [
  {
    name: "our agent, turn open: queued for the step boundary",
    mode: "plan",
    prePlanMode: "default",
    turn: true,
    outside: false,
    gates: OPEN,
    requested: "acceptEdits",
    want: { type: "mode.queued", mode: "acceptEdits", cause: "review" },
  },
  {
    name: "our agent, turn open, no mode asked: the mode plan was entered from, queued",
    mode: "plan",
    prePlanMode: "auto",
    turn: true,
    outside: false,
    gates: OPEN,
    want: { type: "mode.queued", mode: "auto", cause: "review" },
  },
  {
    name: "our agent, turn open, the gate closed while planning: default, queued as a fallback",
    mode: "plan",
    prePlanMode: "auto",
    turn: true,
    outside: false,
    gates: SHUT,
    want: { type: "mode.queued", mode: "default", cause: "fallback" },
  },
  {
    name: "our agent, the turn was aborted while the review waited: changed now",
    mode: "plan",
    prePlanMode: "default",
    turn: false,
    outside: false,
    gates: OPEN,
    requested: "acceptEdits",
    want: { type: "mode.changed", mode: "acceptEdits", cause: "review" },
  },
  {
    name: "an outside agent, turn open: changed now (no driver applies a queue, its hook reads the mode)",
    mode: "plan",
    prePlanMode: "default",
    turn: true,
    outside: true,
    gates: OPEN,
    requested: "acceptEdits",
    want: { type: "mode.changed", mode: "acceptEdits", cause: "review" },
  },
  {
    name: "an outside agent, the gate closed: default now, as a fallback",
    mode: "plan",
    prePlanMode: "auto",
    turn: true,
    outside: true,
    gates: SHUT,
    want: { type: "mode.changed", mode: "default", cause: "fallback" },
  },
  {
    name: "not in plan mode any more (a person left it while the review waited): nothing",
    mode: "acceptEdits",
    prePlanMode: null,
    turn: true,
    outside: false,
    gates: OPEN,
    requested: "default",
    want: { type: null, mode: "acceptEdits" },
  },
];

describe("the mode events of a plan approval", () => {
  it.each(rows)("$name", (r) => {
    const state = { mode: r.mode, prePlanMode: r.prePlanMode, openTurnId: r.turn ? "trn_1" : null };
    const { events, mode } = approvalModeEvents(state, r.gates, r.requested, r.outside);
    expect(mode).toBe(r.want.mode);
    expect(events.map((e) => e.type)).toEqual(r.want.type ? [r.want.type] : []);
    const [event] = events;
    if (event?.type === "mode.queued") expect(event.payload).toEqual({ target: r.want.mode, cause: r.want.cause });
    if (event?.type === "mode.changed")
      expect(event.payload).toEqual({ from: r.mode, to: r.want.mode, prePlanMode: null, cause: r.want.cause });
  });

  it.each(rows.filter((r) => r.want.type === "mode.queued"))(
    "queued, the session still says plan mode; the step boundary lands where a change now would: $name",
    (r) => {
      const before = { ...emptyState, mode: r.mode, prePlanMode: r.prePlanMode, openTurnId: "trn_1" };
      const [queued] = approvalModeEvents(before, r.gates, r.requested, false).events;
      const waiting = applyEvent(before, queued!);
      expect(waiting).toMatchObject({ mode: "plan", plan: { active: true, pending: true } });
      expect(approvalQueued(waiting)).toBe(true);
      // What the driver's step boundary appends (applyQueuedMode), against what committing at once gives.
      const boundary = transitionEvents(waiting, waiting.queuedMode!, r.gates, waiting.queuedCause!);
      const now = approvalModeEvents({ ...before, openTurnId: null }, r.gates, r.requested, false).events;
      expect(boundary).toEqual(now);
      const after = applyEvent(waiting, boundary[0]!);
      expect(after).toMatchObject({ mode: r.want.mode, queuedMode: null, plan: { active: false, pending: false } });
      expect(approvalQueued(after)).toBe(false);
    },
  );

  it("a person's choice in the window replaces the approval's: no longer the approval's", () => {
    const state = { ...emptyState, mode: "plan" as Mode, prePlanMode: "default" as Mode, openTurnId: "trn_1" };
    const [queued] = approvalModeEvents(state, OPEN, "acceptEdits", false).events;
    const chosen = applyEvent(applyEvent(state, queued!), {
      type: "mode.queued",
      payload: { target: "default", cause: "user" },
    });
    expect(chosen.queuedMode).toBe("default");
    expect(approvalQueued(chosen)).toBe(false);
  });
});
