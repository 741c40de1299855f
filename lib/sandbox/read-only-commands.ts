import {
  hasStrayControl,
  nodeType,
  parseShell,
  REDIR,
  walkShell,
  type ShCallExpr,
  type ShDblQuoted,
  type ShDeclClause,
  type ShLit,
  type ShNode,
  type ShParamExp,
  type ShRedirect,
  type ShSglQuoted,
  type ShWord,
} from "./split-commands";
import { checkGit, countOperands, longPrefix, shortFlag, type ArgCheck } from "./read-only-rules";

export type ReadOnlyVerdict = { ok: true } | { ok: false; reason: string };

const plain: ArgCheck = () => null;

// Commands whose options could write or run something insist on literal arguments, so that
// "$x" or a glob cannot turn into -delete or --output at run time.
function literalOnly(name: string, check: (args: string[]) => string | null): ArgCheck {
  return (args) => {
    const dynamic = args.find((a) => a.text === null);
    if (dynamic !== undefined) return `"${name}" argument ${dynamic.raw} is not a literal word`;
    return check(args.map((a) => a.text ?? ""));
  };
}

const FIND_WRITERS = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fprint",
  "-fprint0",
  "-fprintf",
  "-fls",
]);

const RULES = new Map<string, ArgCheck>([
  ...["ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "pwd", "echo", "which", "type", "stat"].map(
    (n): [string, ArgCheck] => [n, plain],
  ),
  ...["du", "df", "basename", "dirname", "realpath", "readlink", "uname", "whoami", "id", "printenv"].map(
    (n): [string, ArgCheck] => [n, plain],
  ),
  ...["true", "false", "sleep", "diff", "cmp", "cut", "tr", "nl", "jq", "sha256sum", "md5sum"].map(
    (n): [string, ArgCheck] => [n, plain],
  ),
  [
    "find",
    literalOnly("find", (args) => {
      const bad = args.find((a) => FIND_WRITERS.has(a));
      return bad === undefined ? null : `find ${bad} can write files or run commands`;
    }),
  ],
  [
    "sort",
    literalOnly("sort", (args) => {
      const bad = args.find(
        (a) => shortFlag(a, "oT", "ktS") || longPrefix(a, ["output", "temporary-directory", "compress-program"]),
      );
      return bad === undefined ? null : `sort ${bad} writes files or runs a program`;
    }),
  ],
  [
    "uniq",
    literalOnly("uniq", (args) => {
      const operands = countOperands(args, "fsw", ["skip-fields", "skip-chars", "check-chars"]);
      return operands <= 1 ? null : "uniq with a second file operand writes that file";
    }),
  ],
  ["env", (args) => (args.length === 0 ? null : `"env" with arguments runs a command`)],
  ["git", literalOnly("git", checkGit)],
  [
    "rg",
    literalOnly("rg", (args) => {
      const bad = args.find((a) => longPrefix(a, ["pre", "hostname-bin"]));
      return bad === undefined ? null : `rg ${bad} runs a program`;
    }),
  ],
  [
    "tree",
    literalOnly("tree", (args) => {
      const bad = args.find((a) => shortFlag(a, "oR", ""));
      return bad === undefined ? null : `tree ${bad} writes files`;
    }),
  ],
  [
    "date",
    literalOnly("date", (args) => {
      const bad = args.find((a) => shortFlag(a, "s", "dfrI") || longPrefix(a, ["set"]));
      return bad === undefined ? null : `date ${bad} sets the clock`;
    }),
  ],
  [
    "file",
    literalOnly("file", (args) => {
      const bad = args.find((a) => shortFlag(a, "C", "eFfmP") || longPrefix(a, ["compile"]));
      return bad === undefined ? null : `file ${bad} writes a compiled magic file`;
    }),
  ],
  [
    "printf",
    (args) => {
      const first = args[0];
      if (first === undefined) return null;
      if (first.text === null) return `printf format ${first.raw} is not a literal word`;
      return first.text.startsWith("-v") ? "printf -v assigns a variable" : null;
    },
  ],
  // Bash evaluates the array subscript in `test -v 'a[$(cmd)]'`, so -v/-R and unknown words are out.
  ...["test", "["].map((n): [string, ArgCheck] => [
    n,
    literalOnly(n, (args) => {
      const bad = args.find((a) => a === "-v" || a === "-R");
      return bad === undefined ? null : `${n} ${bad} can run code through an array subscript`;
    }),
  ]),
]);

const REFUSED_NAMES = new Map<string, string>([
  ["eval", "runs arbitrary code"],
  ["exec", "replaces the shell or reopens its files"],
  ["source", "runs a script"],
  [".", "runs a script"],
  ["xargs", "runs arbitrary commands"],
]);

// Unquoted text: a backslash quotes the next character; globs, braces and a leading ~ expand at run time.
function unquoted(value: string): string | null {
  if (value.startsWith("~")) return null;
  if (value.includes("{") && (value.includes(",") || value.includes(".."))) return null;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    if (ch === "\\") {
      i++;
      if (i < value.length && value.charAt(i) !== "\n") out += value.charAt(i);
    } else if (ch === "*" || ch === "?" || (ch === "[" && value.includes("]", i + 1))) {
      // A "[" without a later "]" (the test command) is not a bracket pattern.
      return null;
    } else {
      out += ch;
    }
  }
  return out;
}

// Inside double quotes a backslash only escapes $ ` " \ and newline.
function doubleQuoted(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    const next = value.charAt(i + 1);
    if (ch === "\\" && next !== "" && '$`"\\\n'.includes(next)) {
      if (next !== "\n") out += next;
      i++;
    } else {
      out += ch;
    }
  }
  return out;
}

function literalParts(parts: ShNode[], quoted: boolean): string | null {
  let out = "";
  for (const part of parts) {
    const type = nodeType(part);
    let piece: string | null = null;
    if (type === "Lit") {
      const value = (part as ShLit).Value;
      piece = quoted ? doubleQuoted(value) : unquoted(value);
    } else if (type === "SglQuoted") {
      const q = part as ShSglQuoted;
      piece = q.Dollar && q.Value.includes("\\") ? null : q.Value;
    } else if (type === "DblQuoted") {
      piece = literalParts((part as ShDblQuoted).Parts, true);
    }
    if (piece === null) return null;
    out += piece;
  }
  return out;
}

export function literalWord(word: ShWord): string | null {
  return literalParts(word.Parts, false);
}

export type ReadOnlyOptions = {
  /**
   * No OS sandbox will hide the host: refuse any word that reaches outside the workspace (an absolute path,
   * `~`, `..`), so that an allowlisted reader cannot show the server's secrets.
   */
  confined?: boolean;
};

// bash opens these as sockets in a redirection; anywhere else they are suspicious enough to ask.
const NETWORK_PATH = /\/dev\/(tcp|udp)\//;

/** A word that names a place outside the workspace: an absolute path, `~`, or a `..` step (also after `=`, `:`, `,`). */
export function reachesOutside(word: string): boolean {
  if (word.startsWith("/") || word.startsWith("~")) return true;
  return word.split(/[=/:,]/).includes("..") || /[=:,][/~]/.test(word);
}

function checkWord(value: string, shown: string, opts: ReadOnlyOptions): string | null {
  if (NETWORK_PATH.test(value)) return `${shown} names a network socket`;
  if (opts.confined && reachesOutside(value)) return `${shown} reaches outside the workspace`;
  return null;
}

function checkCall(call: ShCallExpr, text: (node: ShNode) => string, opts: ReadOnlyOptions): string | null {
  const assign = call.Assigns[0];
  if (assign !== undefined) return `variable assignment "${text(assign)}" is not allowed`;
  const [head, ...rest] = call.Args;
  if (head === undefined) return null;
  const name = literalWord(head);
  if (name === null) return `the command name ${text(head)} is not a literal word`;
  const refused = REFUSED_NAMES.get(name);
  if (refused !== undefined) return `"${name}" ${refused}`;
  const rule = RULES.get(name);
  if (rule === undefined) return `"${name}" is not a read-only command`;
  const args = rest.map((w) => ({ text: literalWord(w), raw: text(w) }));
  for (const a of args) {
    if (opts.confined && a.text === null) return `${a.raw} is not a literal word`;
    const problem = checkWord(a.text ?? a.raw, a.raw, opts);
    if (problem !== null) return problem;
  }
  return rule(args);
}

const WRITE_OPS: ReadonlySet<number> = new Set([REDIR.out, REDIR.append, REDIR.clobber, REDIR.all, REDIR.appendAll]);
const HERE_OPS: ReadonlySet<number> = new Set([REDIR.hdoc, REDIR.dashHdoc, REDIR.hereString]);

/**
 * A redirection is read-only only when it reads a file into standard input, feeds it a here-document or
 * here-string, sends output to /dev/null, or joins stdout and stderr. `1</dev/tcp/…` opens a socket on
 * stdout whatever its arrow says, so the descriptor counts as much as the operator.
 */
function checkRedirect(redirect: ShRedirect, text: (node: ShNode) => string, opts: ReadOnlyOptions): string | null {
  const fd = redirect.N?.Value ?? null;
  const target = redirect.Word === null ? null : literalWord(redirect.Word);
  const shown = redirect.Word === null ? "" : text(redirect.Word);
  const refusal = `redirection ${text(redirect)} is not allowed`;
  if (HERE_OPS.has(redirect.Op)) return fd === null || fd === "0" ? null : refusal;
  if (redirect.Op === REDIR.in) {
    if (fd !== null && fd !== "0") return refusal;
    if (target === null) return `input redirection from ${shown} is not a literal path`;
    if (target.startsWith("/dev/") && target !== "/dev/null") return refusal;
    return checkWord(target, `input redirection from "${shown}"`, opts);
  }
  if (redirect.Op === REDIR.dupOut) {
    const from = fd ?? "1";
    if ((from === "2" && target === "1") || (from === "1" && target === "2")) return null;
    return refusal;
  }
  if (WRITE_OPS.has(redirect.Op)) return target === "/dev/null" ? null : `redirection to "${shown}" writes a file`;
  return refusal;
}

// Operators that can assign or evaluate a variable's value as code (${x:=v}, ${!x}, ${a[i]}, ${x@P}).
function checkParam(param: ShParamExp, text: (node: ShNode) => string): string | null {
  const simple = !param.Excl && !param.Width && param.Index === null && param.Slice == null;
  if (simple && param.Repl == null && param.Names === 0 && param.Exp == null) return null;
  return `parameter expansion ${text(param)} is not allowed (only plain $name)`;
}

const STRUCTURAL = new Set(
  [
    "File",
    "Stmt",
    "Comment",
    "BinaryCmd",
    "Subshell",
    "Block",
    "IfClause",
    "WhileClause",
    "ForClause",
    "WordIter",
  ].concat([
    "CaseClause",
    "CaseItem",
    "TimeClause",
    "Word",
    "Lit",
    "SglQuoted",
    "DblQuoted",
    "CmdSubst",
    "ProcSubst",
    "ExtGlob",
  ]),
);

function checkNode(node: ShNode, type: string, text: (node: ShNode) => string, opts: ReadOnlyOptions): string | null {
  if (STRUCTURAL.has(type)) return null;
  switch (type) {
    case "CallExpr":
      return checkCall(node as ShCallExpr, text, opts);
    case "Redirect":
      return checkRedirect(node as ShRedirect, text, opts);
    case "ParamExp":
      return checkParam(node as ShParamExp, text);
    case "DeclClause":
      return `"${(node as ShDeclClause).Variant.Value}" sets variables`;
    case "FuncDecl":
      return "function declarations are not allowed";
    case "ArithmCmd":
    case "ArithmExp":
    case "LetClause":
    case "CStyleLoop":
      // Arithmetic evaluates variable values as expressions, which can run command substitutions.
      return `arithmetic ${text(node)} is not allowed`;
    case "TestClause":
      return "[[ … ]] is not allowed (it evaluates arithmetic); use test or [";
    default:
      return `shell construct ${type} is not allowed`;
  }
}

/**
 * Decides whether a script may run without asking: only if every command in it, however nested, is on a
 * parsed allowlist of read-only commands and no redirection writes a file or opens a socket. This is a
 * classifier, not the boundary: what it lets through still runs in the read-only sandbox with no network,
 * so a mistake here costs nothing. Without bubblewrap it is all there is, and runs `confined`.
 */
export function isReadOnlyCommand(src: string, opts: ReadOnlyOptions = {}): ReadOnlyVerdict {
  if (hasStrayControl(src))
    return {
      ok: false,
      reason:
        "the command holds a control character (such as a carriage return) that the shell reads otherwise than Plangate's parser",
    };
  const parsed = parseShell(src);
  if ("error" in parsed) return { ok: false, reason: `the command could not be parsed: ${parsed.error}` };
  let reason: string | null = null;
  walkShell(parsed.file, (node, type) => {
    if (reason === null) reason = checkNode(node, type, parsed.text, opts);
    return reason === null;
  });
  return reason === null ? { ok: true } : { ok: false, reason };
}
