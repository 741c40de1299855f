import { createRequire } from "node:module";

// mvdan-sh ships no types: these describe only the node fields this code reads.
export type ShPos = { Offset(): number };
export type ShNode = { Pos(): ShPos; End(): ShPos };
export type ShLit = ShNode & { Value: string };
export type ShWord = ShNode & { Parts: ShNode[] };
export type ShSglQuoted = ShNode & { Value: string; Dollar: boolean };
export type ShDblQuoted = ShNode & { Parts: ShNode[] };
export type ShRedirect = ShNode & { Op: number; N: ShLit | null; Word: ShWord | null; Hdoc: ShWord | null };
export type ShStmt = ShNode & { Cmd: ShNode | null; Redirs: ShRedirect[] };
export type ShCallExpr = ShNode & { Assigns: ShNode[]; Args: ShWord[] };
export type ShDeclClause = ShNode & { Variant: ShLit; Args: ShNode[] };
export type ShLetClause = ShNode & { Exprs: ShNode[] };
export type ShParamExp = ShNode & {
  Excl: boolean;
  Width: boolean;
  Index: ShNode | null;
  Slice: unknown;
  Repl: unknown;
  Names: number;
  Exp: unknown;
};
type ShFile = ShNode & { Stmts: ShStmt[] };

type ShSyntax = {
  NewParser(): { Parse(src: string, name: string): ShFile };
  NewPrinter(): { Print(file: ShFile): string };
  Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  NodeType(node: ShNode): string;
};

/** Redirection operators as mvdan-sh 0.10.1 numbers them (pinned by a unit test). */
export const REDIR = {
  out: 54, // >
  append: 55, // >>
  in: 56, // <
  inOut: 57, // <>
  dupIn: 58, // <&
  dupOut: 59, // >&
  clobber: 60, // >|
  hdoc: 61, // <<
  dashHdoc: 62, // <<-
  hereString: 63, // <<<
  all: 64, // &>
  appendAll: 65, // &>>
} as const;

let loaded: ShSyntax | null = null;

// Loaded lazily: the GopherJS bundle is 1.7 MB and also sets globalThis.require when evaluated.
function sh(): ShSyntax {
  if (loaded === null) {
    const require = createRequire(import.meta.url);
    loaded = (require("mvdan-sh") as { syntax: ShSyntax }).syntax;
  }
  return loaded;
}

export function nodeType(node: ShNode): string {
  return sh().NodeType(node);
}

/**
 * A control character other than tab and newline: the parser and bash read it differently (the parser splits
 * words at a carriage return, bash keeps it inside the word, so `cat\rx/y` parses as `cat x/y` and bash runs
 * the program `./cat\rx/y`). A command holding one is never plain and never read-only.
 */
export function hasStrayControl(src: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f]/.test(src);
}

/** Parsed source plus ways to cut text out of it (mvdan positions are UTF-8 byte offsets). */
export type ParsedShell = { file: ShFile; slice(start: number, end: number): string; text(node: ShNode): string };

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  // GopherJS throws the Go error value itself, whose message comes from its Error() method.
  const maybe = err as { Error?: unknown } | null;
  if (maybe !== null && typeof maybe === "object" && typeof maybe.Error === "function") {
    return String((maybe.Error as () => unknown).call(maybe));
  }
  return String(err);
}

export function parseShell(src: string): ParsedShell | { error: string } {
  let file: ShFile;
  try {
    file = sh().NewParser().Parse(src, "command");
  } catch (err) {
    return { error: errorMessage(err) };
  }
  const bytes = Buffer.from(src, "utf8");
  const slice = (start: number, end: number) => bytes.subarray(start, end).toString("utf8");
  return { file, slice, text: (node) => slice(node.Pos().Offset(), node.End().Offset()) };
}

/** Pre-order walk over every node; `visit` returns false to skip a node's children. */
export function walkShell(root: ShNode, visit: (node: ShNode, type: string) => boolean): void {
  const syntax = sh();
  syntax.Walk(root, (node) => (node === null ? true : visit(node, syntax.NodeType(node))));
}

/**
 * The words of a statement's command (assignments first), or null when it is not a simple command.
 * A compound command with redirects ("(…) > out") yields no words, so its redirects still get judged.
 */
function commandWords(stmt: ShStmt, parsed: ParsedShell): string[] | null {
  const cmd = stmt.Cmd;
  const bare = stmt.Redirs.length > 0 ? [] : null;
  if (cmd === null) return bare;
  switch (nodeType(cmd)) {
    case "CallExpr": {
      const call = cmd as ShCallExpr;
      return [...call.Assigns, ...call.Args].map(parsed.text);
    }
    case "DeclClause": {
      const decl = cmd as ShDeclClause;
      return [decl.Variant, ...decl.Args].map(parsed.text);
    }
    case "LetClause":
      return ["let", ...(cmd as ShLetClause).Exprs.map(parsed.text)];
    default:
      return bare;
  }
}

function redirectText(redirect: ShRedirect, parsed: ParsedShell): string {
  // A here-doc's Redirect spans its body; the pattern only needs the operator and delimiter.
  const end = (redirect.Word ?? redirect).End().Offset();
  return parsed.slice(redirect.Pos().Offset(), end);
}

/** Lets mvdan's printer normalise the text, unless reparsing would not give back the same single command. */
function printed(text: string, cmdType: string | null): string {
  const reparsed = parseShell(text);
  if ("error" in reparsed || reparsed.file.Stmts.length !== 1) return text;
  const stmt = reparsed.file.Stmts[0];
  const type = stmt?.Cmd ? nodeType(stmt.Cmd) : null;
  if (type !== cmdType) return text;
  const out = sh().NewPrinter().Print(reparsed.file).trim();
  return out.length > 0 ? out : text;
}

function stmtCommand(stmt: ShStmt, parsed: ParsedShell): string | null {
  const words = commandWords(stmt, parsed);
  if (words === null) return null;
  const redirects = stmt.Redirs.map((r) => redirectText(r, parsed));
  const text = [...words, ...redirects].join(" ");
  const simple = words.length > 0 || stmt.Cmd === null;
  const hasHeredoc = stmt.Redirs.some((r) => r.Op === REDIR.hdoc || r.Op === REDIR.dashHdoc);
  // Reparsing "cat <<EOF" without its body fails, so here-doc commands keep the joined text.
  if (hasHeredoc) return text;
  return printed(text, simple && stmt.Cmd ? nodeType(stmt.Cmd) : null);
}

/**
 * Every simple command in a shell script, in source order, including those nested in pipelines,
 * lists, subshells, blocks, compound commands and command/process substitutions. The gate judges
 * each one, so "git log && rm -rf x" cannot hide the rm behind an allowed git rule.
 */
export function splitCommands(src: string): { commands: string[]; error?: string } {
  const parsed = parseShell(src);
  if ("error" in parsed) return { commands: [src.trim()], error: parsed.error };
  const commands: string[] = [];
  walkShell(parsed.file, (node, type) => {
    if (type === "Stmt") {
      const command = stmtCommand(node as ShStmt, parsed);
      if (command !== null) commands.push(command);
    }
    return true;
  });
  return { commands };
}
