import { describe, expect, it } from "vitest";
import { applySuggestions, locate, type StoredComment, threadsOn } from "./anchor-threads";

const V1 = "# Plan\n\n1. Add a cache\n2. Use Redis for it\n3. Write tests";
const V2 = "# Plan\n\nSome context first.\n\n1. Add a cache\n2. Use an in-memory map\n3. Write tests";

const comment = (over: Partial<StoredComment>): StoredComment => ({
  id: "c1",
  version: 1,
  lineStart: 5,
  lineEnd: 5,
  quote: "3. Write tests",
  body: "Which tests?",
  author: "user",
  createdAt: "2026-12-04T00:00:00.000Z",
  suggestion: null,
  parentId: null,
  resolvedAt: null,
  resolvedBy: null,
  ...over,
});

describe("locate", () => {
  it.each([
    ["moved down", "3. Write tests", V2, 5, { lineStart: 7, lineEnd: 7 }],
    ["a range", "1. Add a cache\n2. Use Redis for it", V1, 3, { lineStart: 3, lineEnd: 4 }],
    ["gone", "2. Use Redis for it", V2, 4, null],
    ["the nearest of two", "x", "x\na\nb\nx", 4, { lineStart: 4, lineEnd: 4 }],
    ["not a prefix match", "3. Write", V1, 5, null],
  ])("%s", (_, quote, content, near, want) => {
    expect(locate(quote, content, near)).toEqual(want);
  });
});

describe("threadsOn", () => {
  it.each([
    ["open beside its moved text", comment({}), "open", { lineStart: 7, lineEnd: 7 }],
    ["outdated when its text is gone", comment({ lineStart: 4, quote: "2. Use Redis for it" }), "outdated", null],
    [
      "resolved stays resolved though its text is still there",
      comment({ resolvedAt: "2026-12-04T01:00:00.000Z", resolvedBy: "Ann" }),
      "resolved",
      { lineStart: 7, lineEnd: 7 },
    ],
  ])("%s", (_, root, status, at) => {
    const [thread] = threadsOn([root], V2, 2);
    expect(thread?.status).toBe(status);
    expect(thread?.at).toEqual(at);
  });

  it("gathers replies under their thread, oldest first, and leaves out threads of the version shown", () => {
    const threads = threadsOn(
      [
        comment({}),
        comment({ id: "r1", version: 2, parentId: "c1", body: "Unit tests." }),
        comment({ id: "r2", version: 2, parentId: "c1", body: "And one e2e." }),
        comment({ id: "c2", version: 2, body: "On this version" }),
      ],
      V2,
      2,
    );
    expect(threads.map((t) => [t.id, t.comments.map((c) => c.body)])).toEqual([
      ["c1", ["Which tests?", "Unit tests.", "And one e2e."]],
    ]);
  });
});

describe("applySuggestions", () => {
  it.each([
    [
      "one line replaced",
      [{ lineStart: 4, lineEnd: 4, suggestion: "2. Use a map" }],
      { plan: V1.replace("Use Redis for it", "Use a map") },
    ],
    [
      "a line removed",
      [{ lineStart: 4, lineEnd: 4, suggestion: "" }],
      { plan: V1.replace("2. Use Redis for it\n", "") },
    ],
    [
      "two, in any order",
      [
        { lineStart: 5, lineEnd: 5, suggestion: "3. Write unit tests\n4. Write an e2e test" },
        { lineStart: 1, lineEnd: 1, suggestion: "# Plan: a cache" },
      ],
      { plan: "# Plan: a cache\n\n1. Add a cache\n2. Use Redis for it\n3. Write unit tests\n4. Write an e2e test" },
    ],
    [
      "overlapping ones refused",
      [
        { lineStart: 3, lineEnd: 4, suggestion: "a" },
        { lineStart: 4, lineEnd: 5, suggestion: "b" },
      ],
      { overlaps: 1 },
    ],
  ])("%s", (_, suggestions, want) => {
    expect(applySuggestions(V1, suggestions)).toEqual(want);
  });
});
