import { RE2 } from "re2-wasm";

/**
 * A small glob compiler for the glob and grep tools: `*` (within one folder),
 * `**` (any number of folders), `?`, `[abc]` / `[a-z]` / `[!abc]`, `{a,b}`
 * (nestable) and `\` escapes. Paths are POSIX, relative to the searched folder.
 */
export type GlobMatcher = (relativePath: string) => boolean;

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/;

function literal(c: string): string {
  return REGEX_SPECIAL.test(c) ? `\\${c}` : c;
}

function classChar(c: string): string {
  return /[\]\\^-]/.test(c) ? `\\${c}` : c;
}

type Parsed = { source: string; end: number };

/** `[...]` starting at `start`; null when never closed, so the `[` is read literally. */
function parseClass(glob: string, start: number): Parsed | null {
  let i = start + 1;
  let negate = false;
  if (glob[i] === "!" || glob[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  for (; i < glob.length; i++) {
    const c = glob[i] ?? "";
    if (c === "]" && !first) {
      // An empty class ("[/]") can match nothing; "[^]" would wrongly match everything.
      if (body === "") return { source: negate ? "[^/]" : "[^\\s\\S]", end: i + 1 };
      // A negated class must still not cross a folder boundary.
      return { source: negate ? `[^/${body}]` : `[${body}]`, end: i + 1 };
    }
    first = false;
    if (c === "\\" && i + 1 < glob.length) {
      body += classChar(glob[++i] ?? "");
    } else if (c === "-" && body !== "" && glob[i + 1] !== "]") {
      body += "-";
    } else {
      body += c === "/" ? "" : classChar(c);
    }
  }
  return null;
}

/** Index of the `}` closing the brace at `start`, or -1; a lone `{` is then literal. */
function closingBrace(glob: string, start: number): number {
  let depth = 0;
  for (let i = start; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

function atSegmentStart(glob: string, i: number, from: number): boolean {
  const prev = glob[i - 1];
  return i === from || prev === "/" || prev === "{" || prev === ",";
}

/** Translates glob[from..to) to a regex source; `inBrace` makes top-level commas separate alternatives. */
function translate(glob: string, from: number, to: number, inBrace: boolean): string {
  let out = "";
  let i = from;
  while (i < to) {
    const c = glob[i] ?? "";
    if (c === "\\" && i + 1 < to) {
      out += literal(glob[i + 1] ?? "");
      i += 2;
    } else if (c === "*") {
      let stars = 1;
      while (glob[i + stars] === "*") stars++;
      const after = i + stars;
      const ends = after === to || glob[after] === "/" || (inBrace && (glob[after] === "," || glob[after] === "}"));
      if (stars >= 2 && atSegmentStart(glob, i, from) && ends) {
        // `**/` may also match no folder at all, so `**/x` finds a top-level `x` too.
        if (glob[after] === "/") {
          out += "(?:.*/)?";
          i = after + 1;
        } else {
          out += ".*";
          i = after;
        }
      } else {
        out += "[^/]*";
        i = after;
      }
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const cls = parseClass(glob, i);
      out += cls ? cls.source : "\\[";
      i = cls ? Math.min(cls.end, to) : i + 1;
    } else if (c === "{") {
      const close = closingBrace(glob, i);
      if (close === -1 || close >= to) {
        out += "\\{";
        i++;
      } else {
        out += `(?:${translate(glob, i + 1, close, true)})`;
        i = close + 1;
      }
    } else if (c === "," && inBrace) {
      out += "|";
      i++;
    } else {
      out += literal(c);
      i++;
    }
  }
  return out;
}

/**
 * The glob as an RE2 expression: matching runs in time linear in the path whatever the pattern, so a
 * model-written `{*,*}{*,*}…` cannot stall the server the way a backtracking JavaScript RegExp did.
 */
export function globToRegExp(glob: string): { test(s: string): boolean } {
  return new RE2(`^${translate(glob, 0, glob.length, false)}$`, "u");
}

/**
 * A pattern without a `/` matches a file's name at any depth ("*.ts" finds
 * every TypeScript file), as in .gitignore and ripgrep; with a `/` it matches
 * the whole relative path.
 */
export function compileGlob(glob: string): GlobMatcher {
  const cleaned = glob.replace(/^\.\//, "");
  const re = globToRegExp(cleaned);
  if (cleaned.includes("/")) return (p) => re.test(p);
  return (p) => re.test(p.slice(p.lastIndexOf("/") + 1));
}
