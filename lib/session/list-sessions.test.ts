import { describe, expect, it } from "vitest";
import { snippetOf } from "./list-sessions";

describe("snippetOf", () => {
  it.each([
    ["move the xylophone table", ["xylophone"], "move the \u0002xylophone\u0003 table"],
    ["Teach the Quokka to smile", ["quokka"], "Teach the \u0002Quokka\u0003 to smile"],
    ["a ".repeat(50) + "needle" + " b".repeat(50), ["needle"], `…${" a".repeat(30).slice(1)} \u0002needle\u0003 ${"b ".repeat(30).slice(0, -1)}…`],
    ["nothing here", ["missing"], null],
  ])("%j", (text, words, want) => {
    expect(snippetOf(text, words, 60)).toBe(want);
  });
});
