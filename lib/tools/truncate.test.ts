import { describe, expect, it } from "vitest";
import { truncateOutput } from "./truncate";
import { MAX_OUTPUT_CHARS } from "./types";

const NOTE = /\n… \[truncated: (\d+) more characters; narrow the request \(offset\/limit, a path or a pattern\)\] …$/;

function split(out: string): { head: string; omitted: number } {
  const m = NOTE.exec(out);
  if (!m) throw new Error(`no truncation note in ${JSON.stringify(out.slice(-200))}`);
  return { head: out.slice(0, m.index), omitted: Number(m[1]) };
}

describe("truncateOutput", () => {
  it.each([
    ["empty", ""],
    ["short", "hello\nworld"],
    ["exactly the limit", "x".repeat(MAX_OUTPUT_CHARS)],
  ])("leaves %s text alone", (_label, text) => {
    expect(truncateOutput(text)).toBe(text);
  });

  it.each([
    ["many lines", Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n"), 1000],
    ["one long line", "y".repeat(5000), 1000],
    ["default limit", "z\n".repeat(MAX_OUTPUT_CHARS), MAX_OUTPUT_CHARS],
  ])("keeps the head of %s within the limit and counts what it dropped", (_label, text, max) => {
    const out = max === MAX_OUTPUT_CHARS ? truncateOutput(text) : truncateOutput(text, max);
    const { head, omitted } = split(out);
    expect(out.length).toBeLessThanOrEqual(max);
    expect(text.startsWith(head)).toBe(true);
    expect(head.length + omitted).toBe(text.length);
  });

  it("cuts at a line boundary when there is one in reach", () => {
    const text = Array.from({ length: 200 }, (_, i) => `row-${i}-${"x".repeat(20)}`).join("\n");
    const { head } = split(truncateOutput(text, 1000));
    expect(text[head.length]).toBe("\n");
    expect(head.endsWith("x")).toBe(true);
  });

  it("does not split a surrogate pair", () => {
    const text = "😀".repeat(2000);
    const { head } = split(truncateOutput(text, 501));
    expect(head.length % 2).toBe(0);
  });
});
