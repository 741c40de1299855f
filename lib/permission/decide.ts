import { evaluateRule } from "./evaluate";
import type { ModeGates, PermissionMode } from "./modes";
import type { Action, Rule, Ruleset } from "./types";

export type DecideInput = DecideFacts & { rulesets: Ruleset[] };

/** What decide weighs besides the rules: the call's facts and the mode in force. */
export type DecideFacts = {
  permission: string;
  pattern: string;
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

function decision(rule: Rule | undefined, action: Action, reason: string): Decision {
  return rule ? { action, reason, rule } : { action, reason };
}

function describeRule(rule: Rule): string {
  return `rule ${rule.permission} "${rule.pattern}" → ${rule.action}`;
}

// Rules are long-lived and judged over and over: the decision a rule gives on its own is built once (and
// frozen, since it is shared), so the gate's common path allocates nothing here.
const ruleDecisions = new WeakMap<Rule, Decision>();
const NO_RULE: Decision = Object.freeze({ action: "ask", reason: "no rule matched" });

function ruleDecision(rule: Rule | undefined): Decision {
  if (rule === undefined) return NO_RULE;
  let d = ruleDecisions.get(rule);
  if (d === undefined) {
    d = Object.freeze({ action: rule.action, reason: describeRule(rule), rule });
    ruleDecisions.set(rule, d);
  }
  return d;
}

/** Modes that turn "ask" into "allow" still ask about a looping agent: that is a question about the agent, not the call. */
const ALWAYS_ASK = "doom_loop";

/**
 * Rules first, then the session's permission mode on top. A mode can only
 * tighten (plan) or answer an "ask" (acceptEdits, auto, bypass); an explicit
 * deny from the rules is never lifted.
 */
export function decide(input: DecideInput): Decision {
  return decideWithRule(evaluateRule(input.permission, input.pattern, ...input.rulesets), input);
}

/**
 * decide, given the rule that matched (last match wins) or none. The gate finds the rule itself so that it
 * never has to merge (and compile) the agent's rules with a session's grants.
 */
export function decideWithRule(rule: Rule | undefined, input: DecideFacts): Decision {
  const base = ruleDecision(rule);
  if (base.action === "deny") return base;
  // A command that cannot change anything (allowlisted, or sandboxed read-only) needs no question.
  if (base.action === "ask" && input.readOnly && input.permission === "bash") return decision(rule, "allow", "read-only command");
  // Control files steer the agent's own rights and what runs later: only a person answers, whatever a rule,
  // an "always" grant, acceptEdits or auto says. Plan mode keeps its own stricter answer below.
  if (input.control === true && input.mode !== "plan") {
    if (input.mode === "bypassPermissions" && input.gates.bypassEnabled) return decision(rule, "allow", "bypassPermissions mode");
    return { action: "ask", reason: "a control file: only a person may allow this write" };
  }

  switch (input.mode) {
    case "plan":
      if (input.readOnly) return base;
      if (input.planFile === true) return decision(rule, "allow", "plan mode: writing the plan file");
      return decision(rule, "deny", "plan mode: only the plan file may be written");
    case "acceptEdits":
      if (base.action === "ask" && input.permission === "edit" && input.insideWorkspace === true) {
        return decision(rule, "allow", "acceptEdits mode: edit inside the workspace");
      }
      return base;
    case "auto":
      if (base.action !== "ask" || input.permission === ALWAYS_ASK) return base;
      return input.gates.autoGateOpen ? decision(rule, "allow", "auto mode") : decision(rule, "ask", `${base.reason}; auto mode gate closed`);
    case "bypassPermissions":
      if (base.action !== "ask" || input.permission === ALWAYS_ASK) return base;
      return input.gates.bypassEnabled
        ? decision(rule, "allow", "bypassPermissions mode")
        : decision(rule, "ask", `${base.reason}; bypassPermissions not enabled`);
    case "default":
      return base;
  }
}
