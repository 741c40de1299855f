export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "auto", "bypassPermissions"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export type ModeGates = {
  /** The auto mode's classifier/gate is available for this session. */
  autoGateOpen: boolean;
  /** The operator turned bypassPermissions on for this install. */
  bypassEnabled: boolean;
};

export const MODE_CHANGE_CAUSES = [
  "user",
  "command",
  "tool",
  "review",
  "restore",
  "fallback",
  "resume",
  "fork",
] as const;
export type ModeChangeCause = (typeof MODE_CHANGE_CAUSES)[number];

export type ModeState = { mode: PermissionMode; prePlanMode: PermissionMode | null };
export type ModeTransition = { changed: boolean; next: ModeState; cause: ModeChangeCause };
export type SetModeResult = ({ ok: true } & ModeTransition) | { ok: false; error: "mode_not_allowed" };

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === "string" && (PERMISSION_MODES as readonly string[]).includes(value);
}

export function isModeAllowed(mode: PermissionMode, gates: ModeGates): boolean {
  if (mode === "auto") return gates.autoGateOpen;
  if (mode === "bypassPermissions") return gates.bypassEnabled;
  return true;
}

/** Remember where we came from so leaving plan mode can go back there. */
export function enterPlan(state: ModeState, cause: ModeChangeCause = "user"): ModeTransition {
  if (state.mode === "plan") return { changed: false, next: state, cause };
  return { changed: true, next: { mode: "plan", prePlanMode: state.mode }, cause };
}

/**
 * Leave plan mode for `requested`, else the mode plan was entered from, else
 * default. A target the gates no longer allow (the gate closed while
 * planning) falls back to default rather than failing the exit.
 */
export function exitPlan(
  state: ModeState,
  gates: ModeGates,
  requested?: PermissionMode,
  requestedCause: ModeChangeCause = "user",
): ModeTransition {
  if (state.mode !== "plan") return { changed: false, next: state, cause: requestedCause };
  const target = requested ?? state.prePlanMode ?? "default";
  let cause: ModeChangeCause = requested !== undefined ? requestedCause : "restore";
  let mode: PermissionMode = target;
  if (target === "plan" || !isModeAllowed(target, gates)) {
    mode = "default";
    cause = "fallback";
  }
  return { changed: true, next: { mode, prePlanMode: null }, cause };
}

export function setMode(
  state: ModeState,
  target: PermissionMode,
  gates: ModeGates,
  cause: ModeChangeCause,
): SetModeResult {
  if (!isModeAllowed(target, gates)) return { ok: false, error: "mode_not_allowed" };
  if (target === "plan") return { ok: true, ...enterPlan(state, cause) };
  if (state.mode === "plan") return { ok: true, ...exitPlan(state, gates, target, cause) };
  const next: ModeState = { mode: target, prePlanMode: null };
  const changed = state.mode !== target || state.prePlanMode !== null;
  return { ok: true, changed, next: changed ? next : state, cause };
}

/** Whether the person carrying a mode over (a resume, a fork, an import) may choose it (lib/auth/rules/mode-rights). */
export type MayCarry = (mode: PermissionMode) => boolean;

/** Carried-over sessions never come back more permissive than the gates, or the person carrying them, allow now. */
function sanitize(mode: PermissionMode, gates: ModeGates, mayCarry: MayCarry): PermissionMode {
  if (mode === "bypassPermissions") return "default";
  if (mode === "auto" && !gates.autoGateOpen) return "default";
  return mayCarry(mode) ? mode : "default";
}

/**
 * Mode for a resumed (or forked, or imported) session. bypassPermissions is never carried (it must be chosen
 * again, consciously); auto only while its gate is open; a mode that answers asks only when the person carrying it
 * over may choose it (else default). Plan stays plan because the plan itself is recovered from the session log.
 */
export function resumeMode(
  mode: PermissionMode,
  prePlanMode: PermissionMode | null,
  gates: ModeGates,
  mayCarry: MayCarry,
  cause: ModeChangeCause = "resume",
): ModeTransition {
  let next: ModeState;
  if (mode === "plan") {
    const pre = prePlanMode === null || prePlanMode === "plan" ? null : sanitize(prePlanMode, gates, mayCarry);
    next = { mode: "plan", prePlanMode: pre };
  } else {
    next = { mode: sanitize(mode, gates, mayCarry), prePlanMode: null };
  }
  const changed = next.mode !== mode || next.prePlanMode !== prePlanMode;
  return { changed, next, cause };
}

/**
 * Shift+Tab order, as in Claude Code: default → acceptEdits → plan → default. auto and bypassPermissions
 * are never reached by a stray key press (they are chosen from the mode menu, with a warning); from either,
 * the cycle goes back to default. A mode the person may not choose (`choosable`, from lib/auth/rules/mode-rights) is
 * skipped: a member cycles default → plan → default.
 */
export function nextModeInCycle(mode: PermissionMode, choosable?: readonly PermissionMode[]): PermissionMode {
  const order = (["default", "acceptEdits", "plan"] as const).filter((m) => !choosable || choosable.includes(m));
  const at = order.indexOf(mode as (typeof order)[number]);
  return at === -1 ? (order[0] ?? "default") : (order[(at + 1) % order.length] ?? "default");
}
