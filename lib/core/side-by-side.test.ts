import { describe, expect, it } from "vitest";
import { sideBySide } from "./side-by-side";

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
