import { describe, expect, it } from "vitest";
import { wordDiff } from "./word-diff";

const show = (before: string, after: string) =>
  wordDiff(before, after).map(
    (r) =>
      `${{ same: " ", add: "+", del: "-" }[r.kind]}${r.parts.map((p) => (p.mark === "add" ? `{+${p.text}+}` : p.mark === "del" ? `[-${p.text}-]` : p.text)).join("")}`,
  );

describe("wordDiff", () => {
  it.each([
    ["nothing changed", "a\nb", "a\nb", [" a", " b"]],
    [
      "one word changed on a line",
      "1. Use Redis for it\n2. Test",
      "1. Use a map for it\n2. Test",
      ["-1. Use [-Redis-] for it", "+1. Use {+a map +}for it", " 2. Test"],
    ],
    ["a line added", "a\nc", "a\nb\nc", [" a", "+b", " c"]],
    ["a line removed", "a\nb\nc", "a\nc", [" a", "-b", " c"]],
    ["two lines become one", "x one\ny two", "x three", ["-x [-one-]", "-y two", "+x {+three+}"]],
  ])("%s", (_, before, after, want) => {
    expect(show(before, after)).toEqual(want);
  });
});
