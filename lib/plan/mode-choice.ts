import {
  enterPlan,
  exitPlan,
  isModeAllowed,
  setMode,
  type ModeChangeCause,
  type ModeGates,
  type PermissionMode,
} from "../permission";
import type { NewEvent } from "../session/log/events";
import type { SessionState } from "../session/log/fold";

export type ModeOutcome = "committed" | "queued" | "cancelled" | "noop";
export type ModeChoice = { plan: boolean } | { mode: PermissionMode };

/** The mode a choice leads to from here: leaving plan restores the mode it was entered from (with fallback). */
export function targetOf(
  state: Pick<SessionState, "mode" | "prePlanMode">,
  choice: ModeChoice,
  gates: ModeGates,
): PermissionMode {
  if ("mode" in choice) return choice.mode;
  if (choice.plan) return "plan";
  return state.mode === "plan" ? exitPlan(state, gates).next.mode : state.mode;
}

// Leaving plan mode for the mode it was entered from is still the chooser's act (user, command, review); only a
// fallback forced by a closed gate keeps its own cause.
function withCause<T extends { cause: ModeChangeCause }>(t: T, cause: ModeChangeCause): T {
  return t.cause === "fallback" ? t : { ...t, cause };
}

/**
 * The mode.changed event that takes the session to `target` now, or none when it is already there. "restore"
 * leaves plan mode for the mode it was entered from (falling back to default when that is no longer allowed).
 */
export function transitionEvents(
  state: Pick<SessionState, "mode" | "prePlanMode">,
  target: PermissionMode | "restore",
  gates: ModeGates,
  cause: ModeChangeCause,
): NewEvent[] {
  const current = { mode: state.mode, prePlanMode: state.prePlanMode };
  const t =
    target === "restore"
      ? withCause(exitPlan(current, gates), cause)
      : target === "plan"
        ? enterPlan(current, cause)
        : state.mode === "plan"
          ? exitPlan(current, gates, target, cause)
          : setMode(current, target, gates, cause);
  if (!("next" in t) || !t.changed) return [];
  return [
    {
      type: "mode.changed",
      payload: { from: state.mode, to: t.next.mode, prePlanMode: t.next.prePlanMode, cause: t.cause },
    },
  ];
}

/**
 * Pure (seed 004's set()): idle → committed now; a turn is open → queued for the next step boundary (as an event,
 * so it survives a restart); choosing the current state while the opposite is pending → cancelled; else noop.
 * `mayChoose` is the chooser's right (lib/auth/rules/mode-rights): a mode they may not choose is refused ("forbidden"),
 * except when leaving plan mode for the mode it was entered from, which then goes to default instead.
 */
export function chooseMode(
  state: SessionState,
  choice: ModeChoice,
  gates: ModeGates,
  cause: ModeChangeCause,
  mayChoose: (mode: PermissionMode) => boolean,
):
  | { ok: true; outcome: ModeOutcome; events: NewEvent[]; target: PermissionMode }
  | { ok: false; code: "mode_not_allowed" | "forbidden"; mode: PermissionMode; error: string } {
  const restore = "plan" in choice && !choice.plan;
  let target = targetOf(state, choice, gates);
  if (!isModeAllowed(target, gates))
    return {
      ok: false,
      code: "mode_not_allowed",
      mode: target,
      error: `${target} is not allowed on this server right now`,
    };
  // Staying where the session is chooses nothing; any change is the chooser's.
  const downgraded = target !== state.mode && !mayChoose(target);
  if (downgraded && !restore)
    return { ok: false, code: "forbidden", mode: target, error: `${target} may not be chosen by this person` };
  if (downgraded) target = "default";
  const ok = (outcome: ModeOutcome, events: NewEvent[]) => ({ ok: true as const, outcome, events, target });
  if (state.openTurnId) {
    const pending = state.queuedMode;
    if (pending !== null && pending === target) return ok("noop", []);
    if (target === state.mode) {
      return pending === null
        ? ok("noop", [])
        : ok("cancelled", [{ type: "mode.queued", payload: { target: null, cause } }]);
    }
    return ok("queued", [{ type: "mode.queued", payload: { target, cause } }]);
  }
  if (target === state.mode) {
    return state.queuedMode === null
      ? ok("noop", [])
      : ok("cancelled", [{ type: "mode.queued", payload: { target: null, cause } }]);
  }
  return ok("committed", transitionEvents(state, restore && !downgraded ? "restore" : target, gates, cause));
}
