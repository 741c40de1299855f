import { decide, evaluate, literalView, type ModeGates, type PermissionMode, type Ruleset } from "../permission";
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

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

export const onceKey = (permission: string, pattern: string) => `${permission}\u0000${pattern}`;

function common(ask: PermissionAsk, pattern: string, input: JudgeInput) {
  return {
    permission: ask.permission,
    pattern,
    gates: input.gates,
    readOnly: ask.readOnly,
    planFile: ask.planFile,
    insideWorkspace: ask.insideWorkspace,
    control: ask.control?.includes(pattern) === true,
  };
}

/** Pure: every pattern of every ask is judged; any deny denies the call, else any ask asks, else it runs. */
export function judgeCall(input: JudgeInput): Judgement {
  const verdicts: PatternVerdict[] = [];
  const pendingAsks: (PermissionAsk & { askPatterns: string[] })[] = [];
  for (const ask of input.asks) {
    const askPatterns: string[] = [];
    for (const pattern of ask.patterns) {
      let verdict: PatternVerdict;
      const literal = ask.exactOnly?.includes(pattern) === true;
      const agentRules = literal ? literalView(input.agentRules) : input.agentRules;
      if (evaluate(ask.permission, pattern, input.agentRules) === "deny") {
        verdict = { permission: ask.permission, pattern, action: "deny", reason: `denied by the ${ask.permission} rules`, asWritten: false };
      } else if (input.allowedOnce.has(onceKey(ask.permission, pattern))) {
        verdict = { permission: ask.permission, pattern, action: "allow", reason: "allowed once by the user", asWritten: true };
      } else {
        const d = decide({ ...common(ask, pattern, input), rulesets: [agentRules, literal ? literalView(input.grantRules) : input.grantRules], mode: input.mode });
        const exactGrant = d.action === "allow" && d.rule?.exact === true && d.rule.action === "allow";
        const bypass = d.action === "allow" && input.mode === "bypassPermissions";
        verdict = { permission: ask.permission, pattern, action: d.action, reason: d.reason, asWritten: exactGrant || bypass };
        for (const a of input.ancestors ?? []) {
          const p = decide({ ...common(ask, pattern, input), rulesets: [literal ? literalView(a.rules) : a.rules], mode: a.mode });
          if (RANK[p.action] > RANK[verdict.action]) verdict = { ...verdict, action: p.action, reason: `the parent session: ${p.reason}`, asWritten: false };
        }
      }
      verdicts.push(verdict);
      if (verdict.action === "ask") askPatterns.push(pattern);
    }
    if (askPatterns.length > 0) pendingAsks.push({ ...ask, askPatterns });
  }
  const denied = verdicts.find((v) => v.action === "deny");
  if (denied) return { kind: "deny", reason: `${denied.permission} "${denied.pattern}": ${denied.reason}`, verdicts };
  if (pendingAsks.length > 0) return { kind: "ask", asks: pendingAsks, verdicts };
  return { kind: "allow", verdicts, asWritten: verdicts.every((v) => v.asWritten) };
}

/** The same tool with the same input three times in a row is a loop worth asking about. */
export function isDoomLoop(previous: { tool: string; input: unknown }[], call: { tool: string; input: unknown }): boolean {
  if (previous.length < 2) return false;
  const key = JSON.stringify([call.tool, call.input]);
  return previous.slice(-2).every((p) => JSON.stringify([p.tool, p.input]) === key);
}
