import { decideWithRule, type DecideFacts, evaluateRule, literalView, type ModeGates, type PermissionMode, type Rule, type Ruleset } from "../permission";
import type { PermissionAsk } from "../tools/types";

/** asWritten: a person allowed this very text (once, or as an exact saved rule), or bypassPermissions did. */
export type PatternVerdict = { permission: string; pattern: string; action: "allow" | "deny" | "ask"; reason: string; asWritten: boolean };

export type Judgement =
  | { kind: "allow"; verdicts: PatternVerdict[]; asWritten: boolean }
  | { kind: "deny"; reason: string; verdicts: PatternVerdict[] }
  | { kind: "ask"; asks: (PermissionAsk & { askPatterns: string[] })[]; verdicts: PatternVerdict[] };

export type JudgeInput = {
  asks: PermissionAsk[];
  /** The agent's merged rules (native + user config). */
  agentRules: Ruleset;
  /** Persisted "always" replies, as allow rules. They can only answer an ask, never lift a deny. */
  grantRules: Ruleset;
  mode: PermissionMode;
  gates: ModeGates;
  /** "permission\u0000pattern" keys the user allowed once for this very call. */
  allowedOnce: ReadonlySet<string>;
  /** A subagent's ancestors: each pattern is also judged by their rules in their current mode, the strictest wins. */
  ancestors?: readonly { rules: Ruleset; mode: PermissionMode }[];
};

const NO_ANCESTORS: NonNullable<JudgeInput["ancestors"]> = [];
const RANK = { allow: 0, ask: 1, deny: 2 } as const;

export const onceKey = (permission: string, pattern: string) => `${permission}\u0000${pattern}`;

/** The facts decide weighs for one pattern, in the given mode. */
function facts(ask: PermissionAsk, pattern: string, gates: ModeGates, mode: PermissionMode): DecideFacts {
  return {
    permission: ask.permission,
    pattern,
    mode,
    gates,
    readOnly: ask.readOnly,
    planFile: ask.planFile,
    insideWorkspace: ask.insideWorkspace,
    control: ask.control?.includes(pattern) === true,
  };
}

/**
 * The rule that answers a pattern under the agent's rules followed by the grants (last match wins): a matching
 * grant, else the agent's own match. Looked up in each ruleset alone, so no merged ruleset is ever compiled
 * and a session's grants cost nothing when there are none.
 */
function answeringRule(permission: string, pattern: string, agentMatch: Rule | undefined, grants: Ruleset): Rule | undefined {
  return (grants.length > 0 ? evaluateRule(permission, pattern, grants) : undefined) ?? agentMatch;
}

/** Pure: every pattern of every ask is judged; any deny denies the call, else any ask asks, else it runs. */
export function judgeCall(input: JudgeInput): Judgement {
  const verdicts: PatternVerdict[] = [];
  // Which patterns of each ask would ask: the asks themselves are built only when nothing denies.
  const asking: (string[] | null)[] = [];
  let denied: PatternVerdict | undefined;
  for (const ask of input.asks) {
    let askPatterns: string[] | null = null;
    let deniedByRules: string | undefined;
    // One facts object per ask, its pattern fields set per pattern: the gate's hot loop allocates little.
    let fact: DecideFacts | undefined;
    for (const pattern of ask.patterns) {
      let verdict: PatternVerdict;
      const literal = ask.exactOnly !== undefined && ask.exactOnly.includes(pattern);
      const agentMatch = evaluateRule(ask.permission, pattern, input.agentRules);
      if (agentMatch?.action === "deny") {
        verdict = { permission: ask.permission, pattern, action: "deny", reason: (deniedByRules ??= `denied by the ${ask.permission} rules`), asWritten: false };
      } else if (input.allowedOnce.size > 0 && input.allowedOnce.has(onceKey(ask.permission, pattern))) {
        verdict = { permission: ask.permission, pattern, action: "allow", reason: "allowed once by the user", asWritten: true };
      } else {
        // A command with redirections or substitutions is answered only by exact rules (or "*"): see literalView.
        const rule = literal
          ? answeringRule(ask.permission, pattern, evaluateRule(ask.permission, pattern, literalView(input.agentRules)), literalView(input.grantRules))
          : answeringRule(ask.permission, pattern, agentMatch, input.grantRules);
        fact ??= facts(ask, pattern, input.gates, input.mode);
        fact.pattern = pattern;
        fact.control = ask.control !== undefined && ask.control.includes(pattern);
        const d = decideWithRule(rule, fact);
        const exactGrant = d.action === "allow" && d.rule?.exact === true && d.rule.action === "allow";
        const bypass = d.action === "allow" && input.mode === "bypassPermissions";
        verdict = { permission: ask.permission, pattern, action: d.action, reason: d.reason, asWritten: exactGrant || bypass };
        for (const a of input.ancestors ?? NO_ANCESTORS) {
          const p = decideWithRule(evaluateRule(ask.permission, pattern, literal ? literalView(a.rules) : a.rules), facts(ask, pattern, input.gates, a.mode));
          if (RANK[p.action] > RANK[verdict.action]) verdict = { ...verdict, action: p.action, reason: `the parent session: ${p.reason}`, asWritten: false };
        }
      }
      verdicts.push(verdict);
      if (verdict.action === "ask") (askPatterns ??= []).push(pattern);
      else if (verdict.action === "deny") denied ??= verdict;
    }
    asking.push(askPatterns);
  }
  if (denied) return { kind: "deny", reason: `${denied.permission} "${denied.pattern}": ${denied.reason}`, verdicts };
  const pendingAsks = input.asks.flatMap((ask, i) => {
    const askPatterns = asking[i];
    return askPatterns ? [{ ...ask, askPatterns }] : [];
  });
  if (pendingAsks.length > 0) return { kind: "ask", asks: pendingAsks, verdicts };
  return { kind: "allow", verdicts, asWritten: verdicts.every((v) => v.asWritten) };
}

/** The same tool with the same input three times in a row is a loop worth asking about. */
export function isDoomLoop(previous: { tool: string; input: unknown }[], call: { tool: string; input: unknown }): boolean {
  if (previous.length < 2) return false;
  const key = JSON.stringify([call.tool, call.input]);
  return previous.slice(-2).every((p) => JSON.stringify([p.tool, p.input]) === key);
}
