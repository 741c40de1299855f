import { describe, expect, it } from "vitest";
import { planBlocks } from "./plan-blocks";

describe("planBlocks", () => {
  it.each([
    [
      "a heading and a paragraph",
      "# Plan\n\nDo it\nwell.",
      [
        [1, 1],
        [3, 4],
      ],
    ],
    [
      "each list item, nested lines with their item",
      "1. a\n2. b\n   - b1\n3. c",
      [
        [1, 1],
        [2, 3],
        [4, 4],
      ],
    ],
    [
      "a fenced block is one",
      "# P\n\n```sh\nnpm test\n\nx\n```",
      [
        [1, 1],
        [3, 7],
      ],
    ],
    ["a table is one", "| a |\n| - |\n| 1 |", [[1, 3]]],
    ["nothing", "", []],
  ])("%s", (_, md, want) => {
    expect(planBlocks(md).map((b) => [b.lineStart, b.lineEnd])).toEqual(want);
  });

  it("keeps each block's own source, an ordered item with its number", () => {
    expect(planBlocks("# P\n\n3. third\n4. fourth").map((b) => b.source)).toEqual(["# P", "3. third", "4. fourth"]);
  });
});
