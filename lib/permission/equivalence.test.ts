import { describe, expect, it } from "vitest";
import { compileRuleset, evaluate, evaluateRule, merge } from "./evaluate";
import type { Action, Rule, Ruleset } from "./types";
import { matchWildcard } from "./wildcard";

/** Reference glob matcher: plain dynamic programming, sharing no code with wildcard.ts. */
function naiveGlob(p: string, s: string): boolean {
  const row = (): boolean[] => new Array<boolean>(s.length + 1).fill(false);
  let prev = row();
  prev[0] = true;
  for (let i = 1; i <= p.length; i++) {
    const cur = row();
    const pc = p[i - 1];
    cur[0] = pc === "*" && prev[0] === true;
    for (let j = 1; j <= s.length; j++) {
      if (pc === "*") cur[j] = prev[j] === true || cur[j - 1] === true;
      else cur[j] = prev[j - 1] === true && (pc === "?" || pc === s[j - 1]);
    }
    prev = cur;
  }
  return prev[s.length] === true;
}

function naiveMatch(pattern: string, input: string): boolean {
  const p = pattern.split("\\").join("/");
  const s = input.split("\\").join("/");
  if (p.endsWith(" *") && naiveGlob(p.slice(0, -2), s)) return true;
  return naiveGlob(p, s);
}

function naiveEvaluate(permission: string, pattern: string, rules: Ruleset): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!;
    if (naiveMatch(r.permission, permission) && naiveMatch(r.pattern, pattern)) return r;
  }
  return undefined;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const ACTIONS: Action[] = ["allow", "deny", "ask"];
const PERMS = ["bash", "edit", "read", "*", "ed*", "b?sh", "*a*", "task"];
const WORDS = ["git", "git log", "src", "a", "ab", "b", "x/y", "x\\y", "", " ", "é", "npm run"];

function randomText(r: () => number, alphabet: string, max: number): string {
  let out = "";
  const n = Math.floor(r() * (max + 1));
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(r() * alphabet.length)];
  return out;
}

/** Patterns biased towards the evaluator's fast paths and trie edge cases. */
function randomPattern(r: () => number): string {
  const word = WORDS[Math.floor(r() * WORDS.length)]!;
  const lit = () => randomText(r, "ab/ \\.-", 4);
  switch (Math.floor(r() * 9)) {
    case 0:
      return "*";
    case 1:
      return word;
    case 2:
      return `${word} *`;
    case 3:
      return `${word}${lit()}*`;
    case 4:
      return `*${lit()}`;
    case 5:
      return `${lit()}*${lit()}`;
    case 6:
      return `*${lit()}*`;
    case 7:
      return `${word}?${lit()} *`;
    default:
      return randomText(r, "ab/ \\*?.", 7);
  }
}

function randomInput(r: () => number): string {
  const word = WORDS[Math.floor(r() * WORDS.length)]!;
  const tail = randomText(r, "ab/ \\.-\n", 6);
  return r() < 0.6 ? `${word}${tail}` : tail;
}

describe("compiled evaluator vs naive reference", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])("random rulesets agree exactly (seed %i)", (seed) => {
    const r = rng(seed);
    for (let round = 0; round < 25; round++) {
      const size = 1 + Math.floor(r() * 80);
      const rules: Rule[] = [];
      for (let i = 0; i < size; i++) {
        rules.push({
          permission: PERMS[Math.floor(r() * PERMS.length)]!,
          pattern: randomPattern(r),
          action: ACTIONS[Math.floor(r() * 3)]!,
        });
      }
      const cut = Math.floor(r() * rules.length);
      const [a, b] = [rules.slice(0, cut), rules.slice(cut)];
      const compiled = compileRuleset(rules);
      for (let q = 0; q < 60; q++) {
        const permission = r() < 0.9 ? PERMS[Math.floor(r() * 4)]! : randomText(r, "abde*", 4);
        const input = r() < 0.5 ? randomInput(r) : randomPattern(r).replace(/[*?]/g, "");
        const want = naiveEvaluate(permission, input, rules);
        expect(compiled.evaluateRule(permission, input)).toBe(want);
        expect(evaluateRule(permission, input, a, b)).toBe(want);
        expect(evaluate(permission, input, rules)).toBe(want?.action ?? "ask");
      }
    }
  });

  it.each([11, 12, 13, 14])("matchWildcard agrees with the reference glob (seed %i)", (seed) => {
    const r = rng(seed);
    for (let i = 0; i < 3_000; i++) {
      const pattern = randomPattern(r);
      const input = r() < 0.5 ? randomInput(r) : randomText(r, "ab/ \\.", 8);
      expect(matchWildcard(pattern, input), `${JSON.stringify(pattern)} vs ${JSON.stringify(input)}`).toBe(
        naiveMatch(pattern, input),
      );
    }
  });

  it("the reference itself tells matches from misses", () => {
    expect(naiveMatch("git *", "git")).toBe(true);
    expect(naiveMatch("a*b", "ab/x")).toBe(false);
    expect(naiveEvaluate("bash", "ls", merge([{ permission: "*", pattern: "*", action: "deny" }]))?.action).toBe(
      "deny",
    );
  });
});
