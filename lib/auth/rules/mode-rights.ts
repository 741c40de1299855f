import { isModeAllowed, type ModeGates, PERMISSION_MODES, type PermissionMode } from "../../permission/modes";
import { type Actor, may } from "./rights";

/**
 * Who may choose which permission mode (issue 41). acceptEdits, auto and bypassPermissions answer asks in a
 * person's place, so choosing one decides in advance every ask it will answer: it needs the same right as answering
 * them (decide: reviewer or above) over the session's workspace. Plan and default decide nothing (plan changes
 * nothing, default asks for every change): they are every member's. One function for every way a mode is chosen
 * (creation, the mode control, /plan off, a plan approval, a fork, a resume, an import, a team lead's model).
 */

/** Modes in which nothing changes unless a person answers its ask. */
const ASKING: readonly PermissionMode[] = ["plan", "default"];

/** Whether being in `mode` answers asks in a person's place. */
export function answersAsks(mode: PermissionMode): boolean {
  return !ASKING.includes(mode);
}

/**
 * Whether `actor` may choose `mode` for a session in `workspace`. A reviewer token chooses for its person (up to
 * their role); an agent token chooses nothing (it may not chat or decide).
 */
export function mayChooseMode(actor: Actor, mode: PermissionMode, workspace: string): boolean {
  if (answersAsks(mode)) return may(actor, "decide", workspace);
  return may(actor, "chat", workspace) || may(actor, "decide", workspace);
}

/** The modes the mode menu and Shift+Tab offer `actor` in `workspace`: theirs to choose, and allowed on the server now. */
export function choosableModes(actor: Actor, workspace: string, gates: ModeGates): PermissionMode[] {
  return PERMISSION_MODES.filter((m) => isModeAllowed(m, gates) && mayChooseMode(actor, m, workspace));
}

/** Why a choice of `mode` is refused, for the 403. */
export function modeRefusal(mode: PermissionMode, workspace: string): string {
  return answersAsks(mode)
    ? `Choosing ${mode} needs the right to decide in ${workspace} (reviewer or above): it answers asks in a person's place. A member works in plan and default modes.`
    : `You may not choose ${mode} in ${workspace}: ask an owner for a role there.`;
}

/** A mode carried over to a session (a fork, a resume, an import), kept only when `actor` may choose it; else default. */
export function carriedBy(actor: Actor, workspace: string): (mode: PermissionMode) => boolean {
  return (mode) => !answersAsks(mode) || mayChooseMode(actor, mode, workspace);
}
