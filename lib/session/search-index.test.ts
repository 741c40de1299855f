import { describe, expect, it } from "vitest";
import type { NewEvent } from "./events";
import { ftsQuery, searchDocs } from "./search-index";

describe("ftsQuery", () => {
  it.each<[string, string | null]>([
    ["pagination", '"pagination"*'],
    ["  add   Pagination ", '"add"* "Pagination"*'],
    ['title:x OR "y" NEAR(a b) -c *', '"title"* "x"* "OR"* "y"* "NEAR"* "a"* "b"* "c"*'],
    ["ünïcode façade", '"ünïcode"* "façade"*'],
    ["!!! ---", null],
    ["", null],
  ])("%j → %j", (input, want) => {
    expect(ftsQuery(input)).toBe(want);
  });

  it("keeps at most 12 words", () => {
    expect(ftsQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "))?.split(" ")).toHaveLength(12);
  });
});

describe("searchDocs", () => {
  it("indexes the title, user and assistant text, and nothing else", () => {
    const events: NewEvent[] = [
      { type: "session.created", payload: { title: "Add pagination", workspace: "/w", agent: "build", model: "offline", mode: "default" } },
      { type: "message.user", payload: { text: "please page the list" } },
      { type: "message.assistant", payload: { text: "  " } },
      { type: "message.assistant", payload: { text: "Done." } },
      { type: "tool.called", payload: { callId: "c", tool: "read", input: { path: "secret" } } },
      { type: "notice", payload: { level: "info", text: "not indexed" } },
    ];
    expect(searchDocs(events)).toEqual([
      { kind: "title", body: "Add pagination" },
      { kind: "message", body: "please page the list" },
      { kind: "message", body: "Done." },
    ]);
  });
});
