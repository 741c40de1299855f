import type { NewEvent, Mode } from "../../lib/session/log/events";
import type { SessionState } from "../../lib/session/log/fold";
import { enterPlan, exitPlan, setMode } from "../../lib/permission";

/** A seeded PRNG so a failing mix can be replayed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const gates = { autoGateOpen: true, bypassEnabled: false };
const MODES: Mode[] = ["default", "acceptEdits", "plan", "auto"];

/** Picks a random operation that is valid in the given state and returns the events it appends. */
export function randomOp(state: SessionState, rand: () => number, n: number): NewEvent[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const ops: (() => NewEvent[])[] = [
    () => [{ type: "message.user", payload: { text: `message ${n}` } }],
    () => [{ type: "message.assistant", payload: { text: `reply ${n}` } }],
    () => {
      const current = { mode: state.mode, prePlanMode: state.prePlanMode };
      const target = pick(MODES);
      const r =
        target === "plan"
          ? enterPlan(current)
          : state.mode === "plan"
            ? exitPlan(current, gates, target)
            : setMode(current, target, gates, "user");
      if (!("next" in r) || !r.changed) return [];
      return [
        {
          type: "mode.changed",
          payload: { from: state.mode, to: r.next.mode, prePlanMode: r.next.prePlanMode, cause: "user" },
        },
      ];
    },
    () =>
      state.openTurnId
        ? [{ type: "mode.queued", payload: { target: rand() < 0.3 ? null : pick(MODES), cause: "command" } }]
        : [],
    () => (state.openTurnId ? [] : [{ type: "turn.started", payload: { turnId: `t${n}` } }]),
    () =>
      state.openTurnId && !state.pendingReview && state.pendingPermissions.length === 0
        ? [{ type: "turn.ended", payload: { turnId: state.openTurnId, reason: "done" } }]
        : [],
    () => (state.openTurnId ? [{ type: "turn.interrupted", payload: { turnId: state.openTurnId } }] : []),
    () =>
      state.openTurnId
        ? [
            {
              type: "permission.asked",
              payload: { requestId: `p${n}`, tool: "bash", permission: "bash", patterns: ["ls"] },
            },
          ]
        : [],
    () => {
      const id = state.pendingPermissions[0];
      return id
        ? [
            {
              type: "permission.replied",
              payload: { requestId: id, reply: pick(["once", "always", "reject"] as const) },
            },
          ]
        : [];
    },
    () =>
      state.openTurnId && !state.pendingReview
        ? [{ type: "review.asked", payload: { reviewId: `r${n}`, kind: "plan-review" } }]
        : [],
    () =>
      state.pendingReview
        ? [
            {
              type: "review.answered",
              payload: { reviewId: state.pendingReview.id, decision: pick(["approve", "reject", "abandon"]) },
            },
          ]
        : [],
    () => [{ type: "command.run", payload: { name: "plan", args: "" } }],
  ];
  return pick(ops)();
}
