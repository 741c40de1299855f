import { type Node, type ParseError, type ParseOptions, parseTree, printParseErrorCode, visit } from "jsonc-parser";

// JSON plus comments and trailing commas, nothing looser: no empty document, no unquoted names or single quotes.
const OPTIONS: ParseOptions = { disallowComments: false, allowTrailingComma: true, allowEmptyContent: false };

const WHAT: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected a colon",
  CommaExpected: "expected a comma",
  CloseBraceExpected: "expected a closing brace",
  CloseBracketExpected: "expected a closing bracket",
  EndOfFileExpected: "expected the end of the document",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "invalid character in a string (control characters must be escaped)",
};

/** "expected a colon at line 3, column 12": the first error, where an editor would put the cursor. */
function located(text: string, error: ParseError): string {
  const before = text.slice(0, error.offset);
  const line = before.split("\n").length;
  const column = error.offset - before.lastIndexOf("\n");
  const code = printParseErrorCode(error.error);
  return `${WHAT[code] ?? code} at line ${line}, column ${column}`;
}

/**
 * The tree as plain data. Built here rather than by jsonc-parser's parse(), which assigns properties: a
 * `"__proto__"` key in an untrusted settings file would set the object's prototype instead of being a key, as
 * it is for JSON.parse.
 */
function dataOf(node: Node): unknown {
  if (node.type === "object")
    return Object.fromEntries(
      (node.children ?? []).map((property) => {
        const [key, value] = property.children ?? [];
        return [String(key?.value), value === undefined ? undefined : dataOf(value)];
      }),
    );
  if (node.type === "array") return (node.children ?? []).map(dataOf);
  return node.value;
}

/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, as OpenCode's `opencode.jsonc` (and many hand-edited
 * `.claude/settings.json` files) are written, with comments and trailing commas blanked out (string contents
 * are never touched, line breaks stay): plain JSON whose positions are those of the original.
 */
export function stripJsonc(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  };
  // A comma is trailing when the next thing after it (comments are not things) closes its object or array.
  let comma: number | null = null;
  const closes = () => {
    if (comma !== null) blank(comma, comma + 1);
    comma = null;
  };
  const other = () => {
    comma = null;
  };
  visit(
    text,
    {
      onComment: (offset, length) => blank(offset, offset + length),
      onSeparator: (character, offset) => {
        comma = character === "," ? offset : null;
      },
      onObjectEnd: closes,
      onArrayEnd: closes,
      onObjectBegin: other,
      onArrayBegin: other,
      onObjectProperty: other,
      onLiteralValue: other,
    },
    OPTIONS,
  );
  return out.join("");
}

/** Parses JSON or JSONC; throws a SyntaxError naming the first problem and its line and column. */
export function parseJsonc(text: string): unknown {
  const source = text.replace(/^\uFEFF/, "");
  const errors: ParseError[] = [];
  const tree = parseTree(source, errors, OPTIONS);
  const first = errors[0];
  if (first !== undefined) throw new SyntaxError(located(source, first));
  if (tree === undefined) throw new SyntaxError("expected a value at line 1, column 1");
  return dataOf(tree);
}
