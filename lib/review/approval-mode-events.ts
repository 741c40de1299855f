// Which mode events a plan approval appends, and the mode the agent is told it has (issue 42, point 10).
import { exitPlan, type ModeGates, type PermissionMode } from "../permission";
import type { NewEvent } from "../session/log/events";
import type { SessionState } from "../session/log/fold";

/**
 * Pure. The approval's mode change takes effect at the step boundary, after the calls issued beside
 * exit_plan_mode have run (still under plan mode's rules): while our agent's turn is open it is queued
 * (mode.queued, applied by the driver's step boundary), so until then the session says plan mode. An outside
 * agent's session (no driver applies a queue there; its hook reads the mode now) and a turn that was aborted while
 * the review waited change the mode at once. `mode` is the mode after the approval, for the agent's message.
 */
export function approvalModeEvents(
  state: Pick<SessionState, "mode" | "prePlanMode" | "openTurnId">,
  gates: ModeGates,
  requested: PermissionMode | undefined,
  outside: boolean,
  fallback = false,
): { events: NewEvent[]; mode: PermissionMode } {
  const t = exitPlan({ mode: state.mode, prePlanMode: state.prePlanMode }, gates, requested, "review");
  if (!t.changed) return { events: [], mode: t.next.mode };
  // A gate closed while planning (or the picker's own fallback) keeps that cause; every other exit is the review's.
  const cause = t.cause === "fallback" || fallback ? "fallback" : "review";
  if (state.openTurnId !== null && !outside)
    return { events: [{ type: "mode.queued", payload: { target: t.next.mode, cause } }], mode: t.next.mode };
  return {
    events: [
      { type: "mode.changed", payload: { from: state.mode, to: t.next.mode, prePlanMode: t.next.prePlanMode, cause } },
    ],
    mode: t.next.mode,
  };
}

/** The queued mode is an approval's (a person's later choice replaces it, with its own cause). */
export const approvalQueued = (state: Pick<SessionState, "queuedCause">): boolean =>
  state.queuedCause === "review" || state.queuedCause === "fallback";
