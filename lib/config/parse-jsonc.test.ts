import { describe, expect, it } from "vitest";
import { parseJsonc } from "./parse-jsonc";

describe("parseJsonc", () => {
  it("reads comments and trailing commas, and leaves strings alone", () => {
    const text = `{
      // line comment
      "$schema": "https://opencode.ai/config.json", /* block */
      "permission": { "bash": { "git push": "ask", "*": "allow", }, },
      "url": "http://x//not-a-comment", "star": "/* nor this */",
      "list": [1, 2,],
    }`;
    expect(parseJsonc(text)).toEqual({
      $schema: "https://opencode.ai/config.json",
      permission: { bash: { "git push": "ask", "*": "allow" } },
      url: "http://x//not-a-comment",
      star: "/* nor this */",
      list: [1, 2],
    });
  });

  it("keeps escaped quotes inside strings and a comma before a comment before the bracket", () => {
    expect(parseJsonc('{"a": "say \\"hi\\" // no", "b": 1, // last\n}')).toEqual({ a: 'say "hi" // no', b: 1 });
  });

  it("throws on what is not JSON even with comments allowed", () => {
    expect(() => parseJsonc("{ permission: allow }")).toThrow(SyntaxError);
  });
});
