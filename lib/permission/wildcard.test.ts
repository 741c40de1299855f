import { describe, expect, it } from "vitest";
import { compileWildcard, matchWildcard, requiredLastChar, requiredPrefix } from "./wildcard";

describe("matchWildcard", () => {
  it.each([
    // "*" and runs of stars match anything, the empty string too
    ["*", "", true],
    ["*", "anything at all/with\nnewlines", true],
    ["**", "x", true],
    // literal fast path: whole-string equality
    ["git", "git", true],
    ["git", "gitx", false],
    ["git", "Git", false],
    ["", "", true],
    ["", "a", false],
    // literal* fast path
    ["src/*", "src/a/b/c.ts", true],
    ["src/*", "src/", true],
    ["src/*", "lib/src/a.ts", false],
    ["npm run*", "npm running", true],
    // *literal fast path
    ["*.env", "config/.env", true],
    ["*.env", ".env.local", false],
    ["*.md", "a/b/c.md", true],
    // *literal* fast path
    ["*secret*", "path/to/secret/file", true],
    ["*secret*", "path/to/SECRET", false],
    // literal* literal (affix)
    ["src/*.ts", "src/a/b.ts", true],
    ["src/*.ts", "src/a/b.tsx", false],
    ["ab*ba", "aba", false],
    ["ab*ba", "abba", true],
    // trailing " *" is optional
    ["git *", "git", true],
    ["git *", "git log", true],
    ["git *", "git ", true],
    ["git *", "gitk", false],
    ["git *", "github login", false],
    [" *", "", true],
    [" *", " x", true],
    [" *", "x", false],
    // general: wildcards in the middle, ?, trailing " *" with wildcards in the head
    ["g?t *", "get", true],
    ["g?t *", "gut status", true],
    ["g?t *", "gt", false],
    ["a*b*c", "a---b---c", true],
    ["a*b*c", "a---c---b", false],
    ["a*b*c", "abc", true],
    ["a?c", "abc", true],
    ["a?c", "ac", false],
    ["a?c", "abbc", false],
    ["???", "a/b", true],
    ["*a?", "xxab", true],
    ["*a?", "xxa", false],
    // * crosses "/" and newlines, ? matches them too
    ["src/*/index.ts", "src/a/b/c/index.ts", true],
    ["echo *", "echo a\nb", true],
    ["a?b", "a\nb", true],
    ["a*z", "a\n\n/z", true],
    // regex metacharacters are literal
    ["a.b", "axb", false],
    ["a.b", "a.b", true],
    ["(x)+[y]{2}|^$", "(x)+[y]{2}|^$", true],
    ["*.(ts|js)", "a.ts", false],
    ["*.(ts|js)", "a.(ts|js)", true],
    ["x+*", "xx", false],
    ["x+*", "x+y", true],
    // backslashes are "/" on both sides
    ["src\\*", "src/a.ts", true],
    ["src/*", "src\\a\\b.ts", true],
    ["C:\\Users\\*\\*.md", "C:/Users/me/plans/x.md", true],
    ["a\\b", "a/b", true],
    ["a/b?c", "a\\bxc", true],
  ])("%j vs %j → %s", (pattern, input, expected) => {
    expect(matchWildcard(pattern, input)).toBe(expected);
    expect(compileWildcard(pattern)(input)).toBe(expected);
  });

  it("does not backtrack exponentially on many stars against a long input", () => {
    const input = "a".repeat(50_000);
    const started = performance.now();
    expect(matchWildcard("*a*a*a*a*a*a*b", input)).toBe(false);
    expect(matchWildcard("a*a*a*a*a*a*?", input)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("requiredPrefix / requiredLastChar", () => {
  it.each([
    ["git *", "git", -1],
    ["git log", "git log", "g".charCodeAt(0)],
    ["src/*.ts", "src/", "s".charCodeAt(0)],
    ["*.md", "", "d".charCodeAt(0)],
    ["a?c*", "a", -1],
    ["x\\y?", "x/y", -1],
    ["", "", -1],
  ])("%j → prefix %j, last %i", (pattern, prefix, last) => {
    expect(requiredPrefix(pattern)).toBe(prefix);
    expect(requiredLastChar(pattern)).toBe(last);
  });
});
