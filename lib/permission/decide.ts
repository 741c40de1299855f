import { evaluateRule } from "./evaluate";
import type { ModeGates, PermissionMode } from "./modes";
import type { Action, Rule, Ruleset } from "./types";

export type DecideInput = {
  permission: string;
  pattern: string;
  rulesets: Ruleset[];
  mode: PermissionMode;
  gates: ModeGates;
  /** The call cannot change anything: read, list, glob, grep, question, todo_write, plan_exit, read-only sandboxed bash. */
  readOnly: boolean;
  /** The call writes exactly this session's plan file. */
  planFile?: boolean;
  insideWorkspace?: boolean;
  /** The call writes a control file (.plangate, .git, agent or editor settings, shell rc files). */
  control?: boolean;
};

export type Decision = { action: Action; reason: string; rule?: Rule };

function describeRule(rule: Rule): string {
  return `rule ${rule.permission} "${rule.pattern}" → ${rule.action}`;
}

/** Modes that turn "ask" into "allow" still ask about a looping agent: that is a question about the agent, not the call. */
const ALWAYS_ASK = "doom_loop";

/**
 * Rules first, then the session's permission mode on top. A mode can only
 * tighten (plan) or answer an "ask" (acceptEdits, auto, bypass); an explicit
 * deny from the rules is never lifted.
 */
export function decide(input: DecideInput): Decision {
  const rule = evaluateRule(input.permission, input.pattern, ...input.rulesets);
  const base: Decision = rule
    ? { action: rule.action, reason: describeRule(rule), rule }
    : { action: "ask", reason: "no rule matched" };
  if (base.action === "deny") return base;
  const withRule = (action: Action, reason: string): Decision => (rule ? { action, reason, rule } : { action, reason });
  // A command that cannot change anything (allowlisted, or sandboxed read-only) needs no question.
  if (base.action === "ask" && input.readOnly && input.permission === "bash") return withRule("allow", "read-only command");
  // Control files steer the agent's own rights and what runs later: only a person answers, whatever a rule,
  // an "always" grant, acceptEdits or auto says. Plan mode keeps its own stricter answer below.
  if (input.control === true && input.mode !== "plan") {
    if (input.mode === "bypassPermissions" && input.gates.bypassEnabled) return withRule("allow", "bypassPermissions mode");
    return { action: "ask", reason: "a control file: only a person may allow this write" };
  }

  switch (input.mode) {
    case "plan":
      if (input.readOnly) return base;
      if (input.planFile === true) return withRule("allow", "plan mode: writing the plan file");
      return withRule("deny", "plan mode: only the plan file may be written");
    case "acceptEdits":
      if (base.action === "ask" && input.permission === "edit" && input.insideWorkspace === true) {
        return withRule("allow", "acceptEdits mode: edit inside the workspace");
      }
      return base;
    case "auto":
      if (base.action !== "ask" || input.permission === ALWAYS_ASK) return base;
      return input.gates.autoGateOpen ? withRule("allow", "auto mode") : withRule("ask", `${base.reason}; auto mode gate closed`);
    case "bypassPermissions":
      if (base.action !== "ask" || input.permission === ALWAYS_ASK) return base;
      return input.gates.bypassEnabled
        ? withRule("allow", "bypassPermissions mode")
        : withRule("ask", `${base.reason}; bypassPermissions not enabled`);
    case "default":
      return base;
  }
}
