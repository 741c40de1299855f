/**
 * JSON with comments (`//`, `/* *\/`) and trailing commas, as OpenCode's `opencode.jsonc` (and many hand-edited
 * `.claude/settings.json` files) are written. Comments and trailing commas are blanked out (string contents are
 * never touched), then the text goes through JSON.parse, so positions in its error messages stay right.
 */
export function stripJsonc(text: string): string {
  const out = text.split("");
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === ",") {
      // A comma followed only by blanks (or comments, already blanked or still ahead) and a closing bracket.
      let j = i + 1;
      for (;;) {
        while (j < text.length && /\s/.test(text[j] ?? "")) j++;
        if (text[j] === "/" && text[j + 1] === "/")
          j = text.indexOf("\n", j) === -1 ? text.length : text.indexOf("\n", j);
        else if (text[j] === "/" && text[j + 1] === "*")
          j = text.indexOf("*/", j + 2) === -1 ? text.length : text.indexOf("*/", j + 2) + 2;
        else break;
      }
      if (text[j] === "}" || text[j] === "]") out[i] = " ";
      i++;
    } else {
      i++;
    }
  }
  return out.join("");
}

/** Parses JSON or JSONC; throws JSON.parse's SyntaxError for anything else. */
export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonc(text.replace(/^\uFEFF/, "")));
}
