import { describe, expect, it } from "vitest";
import { compileRuleset, evaluate, evaluateRule, merge } from "./evaluate";
import type { Action, Rule, Ruleset } from "./types";

const r = (permission: string, pattern: string, action: Action): Rule => ({ permission, pattern, action });

const base: Ruleset = [
  r("*", "*", "allow"),
  r("bash", "*", "ask"),
  r("bash", "git *", "allow"),
  r("bash", "git push *", "deny"),
  r("bash", "git push --dry-run *", "allow"),
  r("edit", "*", "deny"),
  r("edit", "docs/*.md", "allow"),
  r("ed*", "secret/*", "ask"),
  r("read", "*.env", "ask"),
  r("b?sh", "rm -rf *", "deny"),
];

describe("evaluate", () => {
  it.each<[string, string, Action]>([
    ["bash", "ls -la", "ask"],
    ["bash", "git", "allow"],
    ["bash", "git log -n 5", "allow"],
    ["bash", "git push origin main", "deny"],
    ["bash", "git push --dry-run origin", "allow"],
    ["bash", "gitk", "ask"],
    ["bash", "rm -rf /", "deny"],
    ["bash", "rm -r x", "ask"],
    ["edit", "src/a.ts", "deny"],
    ["edit", "docs/guide.md", "allow"],
    ["edit", "docs/deep/nested.md", "allow"],
    ["edit", "secret/docs/x.md", "ask"],
    ["editor", "secret/k", "ask"],
    ["edit", "docs\\win.md", "allow"],
    ["read", "a/.env", "ask"],
    ["read", "a/.env.local", "allow"],
    ["webfetch", "https://x", "allow"],
    ["", "", "allow"],
  ])("%s %j → %s", (permission, pattern, want) => {
    expect(evaluate(permission, pattern, base)).toBe(want);
    expect(compileRuleset(base).evaluate(permission, pattern)).toBe(want);
  });

  it.each<[string, Ruleset, string, string, Action]>([
    ["no rules at all", [], "bash", "ls", "ask"],
    ["no matching permission", [r("edit", "*", "allow")], "bash", "ls", "ask"],
    ["no matching pattern", [r("bash", "git *", "allow")], "bash", "ls", "ask"],
    ["later rule wins", [r("bash", "*", "deny"), r("bash", "*", "allow")], "bash", "ls", "allow"],
    ["later narrower deny wins", [r("bash", "*", "allow"), r("bash", "ls*", "deny")], "bash", "ls", "deny"],
    [
      "earlier narrower rule loses to later broad one",
      [r("bash", "ls*", "deny"), r("bash", "*", "allow")],
      "bash",
      "ls",
      "allow",
    ],
    ["wildcard permission", [r("*", "*", "deny")], "anything", "x", "deny"],
    ["? in permission", [r("t?sk", "*", "deny")], "task", "general", "deny"],
  ])("%s", (_name, rules, permission, pattern, want) => {
    expect(evaluate(permission, pattern, rules)).toBe(want);
  });

  it.each<[string, Ruleset[], Action]>([
    ["zero rulesets ask", [], "ask"],
    ["second ruleset overrides the first", [[r("bash", "*", "deny")], [r("bash", "*", "allow")]], "allow"],
    ["first ruleset applies when the second is silent", [[r("bash", "*", "deny")], [r("edit", "*", "allow")]], "deny"],
    [
      "three rulesets, last wins",
      [[r("bash", "*", "deny")], [r("bash", "*", "allow")], [r("bash", "l*", "ask")]],
      "ask",
    ],
    ["empty rulesets in between", [[r("bash", "*", "deny")], [], []], "deny"],
  ])("multiple rulesets: %s", (_name, rulesets, want) => {
    expect(evaluate("bash", "ls", ...rulesets)).toBe(want);
    expect(evaluate("bash", "ls", merge(...rulesets))).toBe(want);
  });

  it("evaluateRule returns the very rule object that decided", () => {
    expect(evaluateRule("bash", "git push x", base)).toBe(base[3]);
    expect(evaluateRule("bash", "x", [r("edit", "*", "allow")])).toBeUndefined();
  });

  it("caches compiled rulesets by array identity and sees a new array as new", () => {
    const a: Ruleset = [r("bash", "*", "allow")];
    expect(compileRuleset(a)).toBe(compileRuleset(a));
    expect(evaluate("bash", "ls", a)).toBe("allow");
    const b: Ruleset = [...a, r("bash", "*", "deny")];
    expect(evaluate("bash", "ls", b)).toBe("deny");
    expect(evaluate("bash", "ls", a, [r("bash", "ls", "ask")])).toBe("ask");
    expect(evaluate("bash", "ls", a, [r("bash", "ls", "deny")])).toBe("deny");
  });
});

describe("merge", () => {
  it.each<[string, Ruleset[], Ruleset]>([
    ["nothing", [], []],
    ["one", [[r("a", "*", "allow")]], [r("a", "*", "allow")]],
    ["keeps order", [[r("a", "*", "allow")], [r("b", "*", "deny")]], [r("a", "*", "allow"), r("b", "*", "deny")]],
    ["skips empties", [[], [r("b", "x", "ask")], []], [r("b", "x", "ask")]],
  ])("%s", (_name, input, want) => {
    expect(merge(...input)).toEqual(want);
  });

  it("does not mutate its inputs", () => {
    const a: Rule[] = [r("a", "*", "allow")];
    merge(a, [r("b", "*", "deny")]);
    expect(a).toHaveLength(1);
  });
});
