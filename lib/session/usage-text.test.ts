import { describe, expect, it } from "vitest";
import type { Usage } from "./log/events";
import { formatTokens, hasUsage, usageText } from "./usage-text";

describe("formatTokens", () => {
  it.each([
    [0, "0"],
    [56, "56"],
    [1234, "1,234"],
    [1234567, "1,234,567"],
  ])("%d → %s", (n, want) => {
    expect(formatTokens(n)).toBe(want);
  });
});

describe("usageText", () => {
  const cases: [string, Usage | null | undefined, { unit?: boolean }, string | null][] = [
    ["none reported", undefined, {}, null],
    ["null", null, {}, null],
    ["all zero (an offline model)", { input: 0, output: 0 }, {}, null],
    ["zero with zero cache", { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, {}, null],
    ["in and out", { input: 1234, output: 56 }, {}, "1,234 in / 56 out tokens"],
    ["with cache reads", { input: 1234, output: 56, cacheRead: 900 }, {}, "1,234 in / 56 out tokens (900 cached)"],
    ["zero cache reads say nothing", { input: 10, output: 2, cacheRead: 0 }, {}, "10 in / 2 out tokens"],
    [
      "cache reads and writes",
      { input: 1234, output: 56, cacheRead: 900, cacheWrite: 1500 },
      {},
      "1,234 in / 56 out tokens (900 cached, 1,500 written to cache)",
    ],
    ["cache writes only", { input: 5, output: 1, cacheWrite: 7 }, {}, "5 in / 1 out tokens (7 written to cache)"],
    [
      "without the unit",
      { input: 1234, output: 56, cacheRead: 900 },
      { unit: false },
      "1,234 in / 56 out (900 cached)",
    ],
    ["only cache counts still count", { input: 0, output: 0, cacheRead: 3 }, {}, "0 in / 0 out tokens (3 cached)"],
  ];
  it.each(cases)("%s", (_name, usage, opts, want) => {
    expect(usageText(usage, opts)).toBe(want);
    expect(hasUsage(usage)).toBe(want !== null);
  });
});
