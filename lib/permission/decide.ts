import { evaluateRule } from "./evaluate";
import { gate, type CallFacts, type Decision } from "./gate";
import type { Ruleset } from "./types";

export type { Decision } from "./gate";

/** Plangate's own agent's call, with the rulesets it is judged by (merged in order, last match wins). */
export type DecideInput = Omit<CallFacts, "actor"> & { actor?: CallFacts["actor"]; rulesets: Ruleset[] };

/** The gate's answer for one pattern, looking the rule up in the given rulesets (a convenience over `gate`). */
export function decide(input: DecideInput): Decision {
  const { rulesets, ...facts } = input;
  return gate({
    about: "call",
    actor: "agent",
    ...facts,
    rule: evaluateRule(input.permission, input.pattern, ...rulesets),
  });
}
