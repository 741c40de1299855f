import { describe, expect, it } from "vitest";
import type { Usage } from "./log/events";
import { usageFromStateJson } from "./log/projection";

describe("usageFromStateJson", () => {
  const cases: [string, string | null, Usage | null][] = [
    ["no state", null, null],
    ["not JSON", "{", null],
    ["a state written before usage was kept", JSON.stringify({ mode: "plan" }), null],
    ["zero usage (an offline model)", JSON.stringify({ usage: { input: 0, output: 0 } }), null],
    ["not a usage", JSON.stringify({ usage: { input: "many" } }), null],
    ["usage", JSON.stringify({ usage: { input: 3, output: 4, cacheRead: 1 } }), { input: 3, output: 4, cacheRead: 1 }],
  ];
  it.each(cases)("%s", (_name, state, want) => {
    expect(usageFromStateJson(state)).toEqual(want);
  });
});
