import { buildPrefixTrie, lookupPrefix, MAX_DEPTH, type TrieNode } from "./prefix-trie";
import type { Action, Rule, Ruleset } from "./types";
import {
  compileNormalized,
  compilePattern,
  Kind,
  normalizeSlashes,
  requiredLastChar,
  requiredPrefix,
} from "./wildcard";

/** A ruleset turned into a fast, exact last-match-wins evaluator. */
export interface CompiledRuleset {
  readonly rules: Ruleset;
  evaluate(permission: string, pattern: string): Action;
  evaluateRule(permission: string, pattern: string): Rule | undefined;
}

/**
 * One rule as the scan sees it. All candidates share one shape so the scan
 * stays monomorphic, and one object keeps a candidate's fields on one cache line.
 */
type Candidate = {
  readonly kind: Kind;
  /** Required last char code, -1 for none (see requiredLastChar). */
  readonly last: number;
  readonly text: string;
  readonly alt: string;
  readonly test: (input: string) => boolean;
  readonly rule: Rule;
};

/** Candidates in ascending ruleset order; the scan runs from the end. */
type Candidates = readonly Candidate[];

/** Tool names are few; the bound only guards against callers inventing names. */
const MAX_PERMISSIONS = 1_000;
/**
 * Every trie node holds its whole path's candidate list, so memory grows with
 * nodes × rules. Past this many rules for one permission a flat list (one
 * root node, plain last-to-first scan) is the safer trade.
 */
const MAX_INDEXED_RULES = 2_000;

/**
 * Reaching a node proves the input starts with the node's `path`. For a rule
 * whose whole literal prefix is on that path this often settles the test in
 * advance: it becomes Any (certain hit) or is dropped (certain miss).
 */
function specialise(kind: Kind, text: string, path: string): Kind | "miss" {
  // A truncated prefix is not fully on the path; `path.startsWith(text)` always
  // holds otherwise, since the rule sits at the node of its own prefix.
  if (text.length > MAX_DEPTH) return kind;
  const longer = path.length > text.length;
  switch (kind) {
    case Kind.Prefix:
      return Kind.Any;
    case Kind.Equal:
      return longer ? "miss" : kind;
    case Kind.Command:
      if (!longer) return kind;
      return path.charCodeAt(text.length) === 32 ? Kind.Any : "miss";
    default:
      return kind;
  }
}

function exactPattern(pattern: string) {
  const text = normalizeSlashes(pattern);
  return { kind: Kind.Equal, text, alt: "", test: (s: string) => s === text };
}

function lastChar(pattern: string): number {
  return pattern.length === 0 ? -1 : normalizeSlashes(pattern).charCodeAt(pattern.length - 1);
}

function candidates(ruleset: Ruleset, ids: readonly number[], path: string): Candidates {
  const out: Candidate[] = [];
  for (const i of ids) {
    const rule = ruleset[i];
    if (rule === undefined) continue;
    const { kind, text, alt, test } = rule.exact ? exactPattern(rule.pattern) : compilePattern(rule.pattern);
    const settled = specialise(kind, text, path);
    if (settled === "miss") continue;
    const last = settled === Kind.Any ? -1 : rule.exact ? lastChar(rule.pattern) : requiredLastChar(rule.pattern);
    out.push({ kind: settled, last, text, alt, test, rule });
  }
  return out;
}

function hits(c: Candidate, input: string): boolean {
  switch (c.kind) {
    case Kind.Any:
      return true;
    case Kind.Equal:
      return input === c.text;
    case Kind.Prefix:
      return input.startsWith(c.text);
    case Kind.Suffix:
      return input.endsWith(c.text);
    case Kind.Includes:
      return input.includes(c.text);
    case Kind.Command:
      return input === c.text || input.startsWith(c.alt);
    case Kind.Affix:
      return input.length >= c.text.length + c.alt.length && input.startsWith(c.text) && input.endsWith(c.alt);
    default:
      return c.test(input);
  }
}

function scan(list: Candidates, input: string): Rule | undefined {
  const last = input.charCodeAt(input.length - 1);
  for (let i = list.length - 1; i >= 0; i--) {
    const c = list[i]!;
    if (c.last !== -1 && c.last !== last) continue;
    if (hits(c, input)) return c.rule;
  }
  return undefined;
}

/** Build an evaluator; prefer `compileRuleset`/`evaluate`, which cache this per ruleset. */
export function buildCompiled(ruleset: Ruleset): CompiledRuleset {
  const byPermission = new Map<string, TrieNode<Candidates>>();
  let lastPermission: string | undefined;
  let lastRoot: TrieNode<Candidates> | undefined;

  const rootFor = (permission: string): TrieNode<Candidates> => {
    if (permission === lastPermission && lastRoot !== undefined) return lastRoot;
    let root = byPermission.get(permission);
    if (root === undefined) {
      const ids: number[] = [];
      const p = normalizeSlashes(permission);
      ruleset.forEach((rule, i) => {
        if (compileNormalized(rule.permission)(p)) ids.push(i);
      });
      const flat = ids.length > MAX_INDEXED_RULES;
      const prefixOf = (rule: Rule | undefined) =>
        rule?.exact ? normalizeSlashes(rule.pattern) : requiredPrefix(rule?.pattern ?? "");
      const entries = ids.map((id) => ({ id, prefix: flat ? "" : prefixOf(ruleset[id]) }));
      // "git *" is settled by whether the walk got past "git " - give it a node.
      const anchors = ids.flatMap((id) => {
        if (flat || ruleset[id]?.exact) return [];
        const compiled = compilePattern(ruleset[id]?.pattern ?? "");
        return compiled.kind === Kind.Command ? [compiled.alt] : [];
      });
      root = buildPrefixTrie(entries, anchors, (onPath, path) => candidates(ruleset, onPath, path));
      if (byPermission.size >= MAX_PERMISSIONS) byPermission.clear();
      byPermission.set(permission, root);
    }
    lastPermission = permission;
    lastRoot = root;
    return root;
  };

  const evaluateRule = (permission: string, pattern: string): Rule | undefined => {
    const input = normalizeSlashes(pattern);
    return scan(lookupPrefix(rootFor(permission), input), input);
  };
  return {
    rules: ruleset,
    evaluateRule,
    evaluate: (permission, pattern) => evaluateRule(permission, pattern)?.action ?? "ask",
  };
}
