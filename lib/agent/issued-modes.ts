import type { PermissionMode } from "../permission";
import type { SessionEvent } from "../session/log/events";

// From the mode that lets least through to the one that lets most: a call is judged by the stricter of two.
const ORDER: readonly PermissionMode[] = ["plan", "default", "acceptEdits", "auto", "bypassPermissions"];

export function stricter(a: PermissionMode, b: PermissionMode): PermissionMode {
  return ORDER.indexOf(a) <= ORDER.indexOf(b) ? a : b;
}

/**
 * Pure: the permission mode each tool call was issued in, i.e. the mode its model step described, or plan
 * for a call issued after enter_plan_mode in the same step. A call issued in plan mode beside exit_plan_mode
 * stays a plan-mode call after the approval: the model wrote it before anyone approved anything.
 */
export function issuedModes(events: readonly SessionEvent[]): Map<string, PermissionMode> {
  const out = new Map<string, PermissionMode>();
  let mode: PermissionMode | null = null;
  for (const e of events) {
    if (e.type === "message.assistant") mode = e.payload.mode ?? null;
    else if (e.type === "tool.called" && mode !== null) {
      out.set(e.payload.callId, mode);
      if (e.payload.tool === "enter_plan_mode") mode = "plan";
    }
  }
  return out;
}

/** Calls whose start was logged but that have no result: cut by a crash (or an abort) while they ran. */
export function startedUnfinished(events: readonly SessionEvent[]): Set<string> {
  const started = new Set<string>();
  for (const e of events) {
    if (e.type === "tool.started") started.add(e.payload.callId);
    else if (e.type === "tool.result") started.delete(e.payload.callId);
  }
  return started;
}
