// The one answer to "which mode does an approved plan go on in", shared by the server's decision and the card's Approve.
import type { AgentReceives } from "./rules/agent-receives";
import type { ModeGates, PermissionMode } from "../permission";

export type Continuation = "acceptEdits" | "default" | "auto";

/** Who approves: a person on their own agent's plan, a person answering a teammate's plan, or the lead's model. */
export type ApproverKind =
  | { by: "person" }
  | { by: "lead-person" }
  | { by: "lead-model"; mode: PermissionMode; starterMay: boolean };

export type ModeInput = {
  prePlanMode: PermissionMode | string | null | undefined;
  gates: ModeGates;
  approver: ApproverKind;
  /** An outside agent's plan: the modes it can take (null: Plangate's own agent). */
  receives?: AgentReceives | null;
};

/**
 * What the card offers and what it approves into when nothing else is picked. Back to the mode plan mode was entered
 * from; bypassPermissions is never re-entered by an approval (it is chosen again, consciously, as a resume never
 * carries it): edits accepted instead. Auto only while its gate is open. A teammate goes on with edits accepted.
 */
export function approvalChoices(input: ModeInput): { choices: Continuation[]; fallback: Continuation } {
  const { gates, receives } = input;
  const choices: Continuation[] = receives
    ? receives.modes
    : input.approver.by === "person"
      ? gates.autoGateOpen
        ? ["default", "acceptEdits", "auto"]
        : ["default", "acceptEdits"]
      : ["acceptEdits", "default"];
  const preferred = preferredMode(input);
  return { choices, fallback: choices.includes(preferred) ? preferred : (choices[0] ?? "default") };
}

function preferredMode({ prePlanMode, gates, approver }: ModeInput): Continuation {
  if (approver.by === "lead-person") return "acceptEdits";
  if (approver.by === "lead-model")
    return approver.mode === "default" || !approver.starterMay ? "default" : "acceptEdits";
  if (prePlanMode === "acceptEdits" || prePlanMode === "bypassPermissions") return "acceptEdits";
  if (prePlanMode === "auto" && gates.autoGateOpen) return "auto";
  return "default";
}

/**
 * The mode the server leaves plan mode for: what the person picked when it is one the card offers them, else the
 * card's fallback. A model picks nothing (its approval never gives more than its own lead's people may choose).
 */
export function approvalMode(input: ModeInput & { requested?: Continuation | undefined }): Continuation {
  return approvalTarget(input).mode;
}

/**
 * approvalMode(), and whether it falls back: the mode from before plan mode (auto) is closed now, so the plan goes
 * on in the card's fallback instead (logged as a fallback, not as the reviewer's choice).
 */
export function approvalTarget(input: ModeInput & { requested?: Continuation | undefined }): {
  mode: Continuation;
  fallback: boolean;
} {
  const mode = pickMode(input);
  const closed = input.requested === undefined && input.prePlanMode === "auto" && !input.gates.autoGateOpen;
  return { mode, fallback: closed && input.approver.by === "person" };
}

function pickMode(input: ModeInput & { requested?: Continuation | undefined }): Continuation {
  const { choices, fallback } = approvalChoices(input);
  if (input.approver.by === "lead-model" || input.requested === undefined) return fallback;
  if (input.requested === "auto" && input.approver.by === "lead-person") return "acceptEdits";
  return choices.includes(input.requested) || !input.receives ? input.requested : fallback;
}
