import { describe, expect, it } from "vitest";
import { parseJsonc, stripJsonc } from "./parse-jsonc";

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

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', "expected a comma at line 3, column 3"],
    ["{ permission: allow }", "unexpected character at line 1, column 3"],
    [`{"a": 1,, }`, "expected a property name in double quotes at line 1, column 9"],
    ["{ 'a': 1 }", "at line 1, column 3"],
    ["", "expected a value at line 1, column 1"],
    ["  // only a comment\n", "expected a value"],
    ['{"a": 1} /* never closed', "unterminated comment at line 1, column 10"],
    ["[1,,]", "expected a value at line 1, column 4"],
    ["[,]", "expected a value at line 1, column 2"],
    ['{"a": "tab\there"}', "invalid character in a string"],
    ['{"a": 1} {"b": 2}', "expected the end of the document at line 1, column 10"],
    ["NaN", "unexpected character at line 1, column 1"],
  ])("refuses %j, naming the first problem and where it is", (text, message) => {
    expect(() => parseJsonc(text)).toThrow(SyntaxError);
    expect(() => parseJsonc(text)).toThrow(message);
  });

  it("reads a byte order mark and CRLF line ends", () => {
    expect(parseJsonc('\uFEFF{\r\n  // c\r\n  "a": [1,],\r\n}')).toEqual({ a: [1] });
  });

  it('keeps "__proto__" a key, as JSON.parse does, never the prototype', () => {
    const parsed = parseJsonc('{"__proto__": {"permission": {"bash": "allow"}}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(["__proto__"]);
    expect(parsed.permission).toBeUndefined();
    expect(parsed).toEqual(JSON.parse('{"__proto__": {"permission": {"bash": "allow"}}}'));
  });
});

describe("stripJsonc", () => {
  it("blanks comments and trailing commas in place: JSON whose positions are the original's", () => {
    const text = '{\n  "a": "x//y", // c\n  "b": [1, /* two */ 2, ],\n}';
    const plain = stripJsonc(text);
    expect(plain).toHaveLength(text.length);
    expect(plain.split("\n")).toHaveLength(text.split("\n").length);
    expect(plain.indexOf('"b"')).toBe(text.indexOf('"b"'));
    expect(JSON.parse(plain)).toEqual({ a: "x//y", b: [1, 2] });
  });
});
