import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodMessage } from "./zod-words";

const words = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected a problem");
  return zodMessage(r.error);
};

describe("zodMessage: the problems with a request, in words", () => {
  it.each([
    [
      z.object({ feedback: z.string().max(20_000) }),
      { feedback: "x".repeat(20_001) },
      "feedback: at most 20,000 characters",
    ],
    [z.object({ title: z.string().min(1) }), { title: "" }, "title: must not be empty"],
    [z.object({ name: z.string().min(3) }), { name: "a" }, "name: at least 3 characters"],
    [
      z.object({ comments: z.array(z.number()).max(100) }),
      { comments: Array(101).fill(1) },
      "comments: at most 100 items",
    ],
    [z.object({ n: z.number().int().max(5) }), { n: 9 }, "n: at most 5"],
    [
      z.object({ a: z.string().max(1), b: z.string().max(2) }),
      { a: "xx", b: "yyy" },
      "a: at most 1 character; b: at most 2 characters",
    ],
  ])("%#", (schema, value, want) => {
    expect(words(schema, value)).toBe(want);
  });

  it("other problems keep zod's words, with where they are", () => {
    expect(words(z.object({ mode: z.enum(["a", "b"]) }), { mode: "c" })).toMatch(/^mode: /);
  });
});
