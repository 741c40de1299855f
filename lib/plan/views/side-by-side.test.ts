import { describe, expect, it } from "vitest";
import { foldUnchanged, sideBySide } from "./side-by-side";

describe("sideBySide", () => {
  it.each<[string, string, string, [string | null, string | null, string][]]>([
    [
      "identical",
      "a\nb\n",
      "a\nb\n",
      [
        ["a", "a", "same"],
        ["b", "b", "same"],
      ],
    ],
    [
      "a line added at the end",
      "a\n",
      "a\nb\n",
      [
        ["a", "a", "same"],
        [null, "b", "added"],
      ],
    ],
    [
      "a line removed",
      "a\nb\nc\n",
      "a\nc\n",
      [
        ["a", "a", "same"],
        ["b", null, "removed"],
        ["c", "c", "same"],
      ],
    ],
    [
      "a line changed",
      "1. add x\n2. test\n",
      "1. add y\n2. test\n",
      [
        ["1. add x", "1. add y", "changed"],
        ["2. test", "2. test", "same"],
      ],
    ],
    [
      "one line becomes two",
      "x\n",
      "y\nz\n",
      [
        ["x", "y", "changed"],
        [null, "z", "added"],
      ],
    ],
    ["from nothing", "", "a\n", [[null, "a", "added"]]],
  ])("%s", (_name, a, b, want) => {
    expect(sideBySide(a, b).map((r) => [r.left, r.right, r.kind])).toEqual(want);
  });
});

describe("foldUnchanged", () => {
  const same = (n: number, from = 1) =>
    Array.from({ length: n }, (_, i) => ({ left: `s${from + i}`, right: `s${from + i}`, kind: "same" as const }));
  const change = { left: "x", right: "y", kind: "changed" as const };
  const shape = (rows: ReturnType<typeof foldUnchanged>) =>
    rows.map((r) => (r.kind === "skipped" ? `…${r.count}` : r.kind === "same" ? r.left : r.kind));
  it.each<[string, Parameters<typeof foldUnchanged>[0], string[]]>([
    ["nothing changed: one fold", same(5), ["…5"]],
    [
      "a change in the middle keeps two rows each side",
      [...same(6), change, ...same(6, 7)],
      ["…4", "s5", "s6", "changed", "s7", "s8", "…4"],
    ],
    [
      "a run of one between contexts is shown, not folded",
      [change, ...same(5), change],
      ["changed", "s1", "s2", "s3", "s4", "s5", "changed"],
    ],
    [
      "a run of two between contexts folds",
      [change, ...same(6), change],
      ["changed", "s1", "s2", "…2", "s5", "s6", "changed"],
    ],
    ["a change at the start and none after", [change, ...same(3)], ["changed", "s1", "s2", "s3"]],
    ["an empty diff", [], []],
  ])("%s", (_name, rows, want) => {
    expect(shape(foldUnchanged(rows))).toEqual(want);
  });

  it("keeps every changed row and counts every folded one", () => {
    const rows = [
      ...same(40),
      change,
      ...same(3, 41),
      { left: null, right: "z", kind: "added" as const },
      ...same(40, 44),
    ];
    const shown = foldUnchanged(rows);
    const counted = shown.reduce((n, r) => n + (r.kind === "skipped" ? r.count : 1), 0);
    expect(counted).toBe(rows.length);
    expect(shown.filter((r) => r.kind !== "same" && r.kind !== "skipped")).toHaveLength(2);
    expect(shown.length).toBeLessThan(12);
  });
});
