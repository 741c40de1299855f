import { evaluateRule } from "./evaluate";
import { gate, type CallQuestion } from "./gate";
import { literalView } from "./literal-view";
import type { ModeGates, PermissionMode } from "./modes";
import type { CallAsk, Rule, Ruleset } from "./types";

/** asWritten: a person allowed this very text (once, or as an exact saved rule), or bypassPermissions did. */
export type PatternVerdict = {
  permission: string;
  pattern: string;
  action: "allow" | "deny" | "ask";
  reason: string;
  asWritten: boolean;
};

export type Judgement<A extends CallAsk = CallAsk> =
  | { kind: "allow"; verdicts: PatternVerdict[]; asWritten: boolean }
  | { kind: "deny"; reason: string; verdicts: PatternVerdict[] }
  | { kind: "ask"; asks: (A & { askPatterns: string[] })[]; verdicts: PatternVerdict[] };

export type JudgeInput<A extends CallAsk = CallAsk> = {
  /** Plangate's sandboxed agent (the default), or an outside agent's ask. */
  actor?: "agent" | "outside";
  asks: readonly A[];
  /** The rules that may widen: the agent's (native + a trusted workspace config); none for an outside agent. */
  agentRules: Ruleset;
  /** A person's "always" grants for this actor, as allow rules. They can only answer an ask, never lift a deny. */
  grantRules: Ruleset;
  /** Rules that may only narrow: the deny and ask rules of a workspace config that is not trusted (or, for an outside agent, of any). */
  narrowing?: Ruleset;
  mode: PermissionMode;
  gates: ModeGates;
  /** "permission\u0000pattern" keys a person allowed once for this very call. */
  allowedOnce: ReadonlySet<string>;
  /** A subagent's ancestors: each pattern is also judged by their rules in their current mode, the strictest wins. */
  ancestors?: readonly { rules: Ruleset; mode: PermissionMode }[];
};

const NO_RULES: Ruleset = [];
const RANK = { allow: 0, ask: 1, deny: 2 } as const;
export const onceKey = (permission: string, pattern: string) => `${permission}\u0000${pattern}`;

/** The last matching rule, looked up in the literal view for a pattern only exact rules may answer. */
function lookup(permission: string, pattern: string, rules: Ruleset, literal: boolean): Rule | undefined {
  return rules.length === 0 ? undefined : evaluateRule(permission, pattern, literal ? literalView(rules) : rules);
}

/**
 * Pure: every pattern of every ask is judged by the one gate; any deny denies the call, else any ask asks, else
 * it runs. The rule that answers a pattern is a matching grant, else the agent's own match (the agent's rules
 * followed by the grants, last match wins), each ruleset looked up alone so no merged ruleset is compiled.
 */
export function judgeCall<A extends CallAsk>(input: JudgeInput<A>): Judgement<A> {
  const verdicts: PatternVerdict[] = [];
  // Which patterns of each ask would ask: the asks themselves are built only when nothing denies.
  const asking: (string[] | null)[] = [];
  let denied: PatternVerdict | undefined;
  const narrowing = input.narrowing ?? NO_RULES;
  for (const ask of input.asks) {
    let askPatterns: string[] | null = null;
    // One question per ask, its pattern fields set per pattern: the gate's hot loop allocates little.
    // Every field set up front: one object shape for the whole loop.
    const q: CallQuestion = {
      about: "call",
      actor: input.actor ?? "agent",
      permission: ask.permission,
      pattern: "",
      mode: input.mode,
      gates: input.gates,
      readOnly: ask.readOnly,
      planFile: ask.planFile,
      insideWorkspace: ask.insideWorkspace,
      unsandboxed: ask.unsandboxed === true,
      control: false,
      held: false,
      plain: true,
      personAllowed: false,
      rule: undefined,
      narrowing: undefined,
    };
    for (const pattern of ask.patterns) {
      const literal = ask.exactOnly !== undefined && ask.exactOnly.includes(pattern);
      q.pattern = pattern;
      q.plain = !literal;
      q.control = ask.control !== undefined && ask.control.includes(pattern);
      q.held = ask.held !== undefined && ask.held.includes(pattern);
      q.personAllowed = input.allowedOnce.size > 0 && input.allowedOnce.has(onceKey(ask.permission, pattern));
      // A grant never lifts the agent's own deny.
      const own = lookup(ask.permission, pattern, input.agentRules, literal);
      q.rule = own?.action === "deny" ? own : (lookup(ask.permission, pattern, input.grantRules, literal) ?? own);
      q.narrowing = lookup(ask.permission, pattern, narrowing, literal);
      const d = gate(q);
      let verdict: PatternVerdict = {
        permission: ask.permission,
        pattern,
        action: d.action,
        reason: d.reason,
        asWritten: d.asWritten === true,
      };
      if (verdict.action !== "deny") {
        for (const a of input.ancestors ?? []) {
          const p = gate({
            ...q,
            mode: a.mode,
            rule: lookup(ask.permission, pattern, a.rules, literal),
            narrowing: undefined,
          });
          if (RANK[p.action] > RANK[verdict.action])
            verdict = { ...verdict, action: p.action, reason: `the parent session: ${p.reason}`, asWritten: false };
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

const NO_ONE: ReadonlySet<string> = new Set();
const CLOSED: ModeGates = { autoGateOpen: false, bypassEnabled: false };

/**
 * Whether a person's saved grants alone answer an ask for this actor, as the gate would: no native rule, no
 * mode, no control file (those need a person each time), and the workspace's narrowing rules still bind. Used
 * where a grant may stand in for a new question.
 */
export function grantsAllow(
  actor: "agent" | "outside",
  ask: CallAsk,
  grants: Ruleset,
  narrowing: Ruleset = NO_RULES,
): boolean {
  if (ask.control !== undefined && ask.control.length > 0) return false;
  return (
    judgeCall({
      actor,
      asks: [ask],
      agentRules: NO_RULES,
      grantRules: grants,
      narrowing,
      mode: "default",
      gates: CLOSED,
      allowedOnce: NO_ONE,
    }).kind === "allow"
  );
}
