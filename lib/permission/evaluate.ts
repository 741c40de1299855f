import { buildCompiled, type CompiledRuleset } from "./compile";
import type { Action, Rule, Ruleset } from "./types";

export type { CompiledRuleset } from "./compile";

/** Concatenate rulesets; later rules win because evaluation is last-match-wins. */
export function merge(...rulesets: Ruleset[]): Ruleset {
  return rulesets.flat();
}

/**
 * Compiled evaluators cached by the identity of each ruleset array in the
 * call, nested so `evaluate(p, x, agent, user)` never merges per call.
 */
type CacheNode = { compiled: CompiledRuleset | undefined; next: WeakMap<Ruleset, CacheNode> | undefined };

const roots = new WeakMap<Ruleset, CacheNode>();
const EMPTY: CompiledRuleset = buildCompiled([]);

function nodeFor(map: WeakMap<Ruleset, CacheNode>, key: Ruleset): CacheNode {
  let node = map.get(key);
  if (node === undefined) {
    node = { compiled: undefined, next: undefined };
    map.set(key, node);
  }
  return node;
}

// The common call is the same single agent ruleset over and over; an identity
// check is cheaper than a WeakMap hit.
let lastSingle: Ruleset | undefined;
let lastSingleCompiled: CompiledRuleset = EMPTY;

function compiledFor(rulesets: readonly Ruleset[]): CompiledRuleset {
  const first = rulesets[0];
  // An empty ruleset compiles to nothing: a throwaway [] must not cost a compile (or a cache entry) per call.
  if (first === undefined || (rulesets.length === 1 && first.length === 0)) return EMPTY;
  if (rulesets.length === 1 && first === lastSingle) return lastSingleCompiled;
  let node = nodeFor(roots, first);
  for (let i = 1; i < rulesets.length; i++) {
    node.next ??= new WeakMap();
    node = nodeFor(node.next, rulesets[i]!);
  }
  node.compiled ??= buildCompiled(rulesets.length === 1 ? first : merge(...rulesets));
  if (rulesets.length === 1) {
    lastSingle = first;
    lastSingleCompiled = node.compiled;
  }
  return node.compiled;
}

/** Cached compiled evaluator for one ruleset (or several, merged in order). */
export function compileRuleset(...rulesets: Ruleset[]): CompiledRuleset {
  return compiledFor(rulesets);
}

/** The last rule matching both permission and pattern, if any. */
export function evaluateRule(permission: string, pattern: string, ...rulesets: Ruleset[]): Rule | undefined {
  return compiledFor(rulesets).evaluateRule(permission, pattern);
}

/** The action of the last matching rule; "ask" when nothing matches. */
export function evaluate(permission: string, pattern: string, ...rulesets: Ruleset[]): Action {
  return compiledFor(rulesets).evaluateRule(permission, pattern)?.action ?? "ask";
}
