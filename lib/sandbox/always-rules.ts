import { ANY_ARGUMENTS, SUBCOMMANDS } from "../permission/prefix-rules";
import { literalWord } from "./read-only-commands";
import {
  hasStrayControl,
  nodeType,
  parseShell,
  splitCommands,
  walkShell,
  type ParsedShell,
  type ShCallExpr,
  type ShStmt,
} from "./split-commands";

/** One simple command of a script: its text (the pattern the gate judges) and, when plain, its literal words. */
export type CommandShape = { text: string; plain: boolean; words: string[] | null };

/** A rule "Allow always" may save for one command, described in plain words for the permission card. */
export type AlwaysOption = { rule: string; exact: boolean; words: string };

/** A plain command: a program and literal words, with no assignment, expansion, substitution or redirection. */
function plainWords(stmt: ShStmt): string[] | null {
  const cmd = stmt.Cmd;
  if (cmd === null || nodeType(cmd) !== "CallExpr") return null;
  const call = cmd as ShCallExpr;
  if (call.Assigns.length > 0 || call.Args.length === 0) return null;
  if (stmt.Redirs.length > 0) return null;
  const words: string[] = [];
  for (const w of call.Args) {
    const text = literalWord(w);
    if (text === null) return null;
    words.push(text);
  }
  return words;
}

/** Whether each command text the gate judges is plain, keyed by text (the same texts splitCommands gives). */
export function plainCommands(src: string, texts: readonly string[]): Map<string, string[] | null> {
  const out = new Map<string, string[] | null>(texts.map((t) => [t, null]));
  if (hasStrayControl(src)) return out;
  const parsed: ParsedShell | { error: string } = parseShell(src);
  if ("error" in parsed) return out;
  const stmts: ShStmt[] = [];
  walkShell(parsed.file, (node, type) => {
    if (type === "Stmt") stmts.push(node as ShStmt);
    return true;
  });
  // A statement is plain only when its own text is exactly what the gate judges (no nested command inside it).
  for (const stmt of stmts) {
    const words = plainWords(stmt);
    if (words === null) continue;
    const joined = words.join(" ");
    if (out.has(joined) && /^[A-Za-z0-9_./@%+=:,-]+( [A-Za-z0-9_./@%+=:,-]+)*$/.test(joined)) out.set(joined, words);
  }
  return out;
}

/** Every simple command of a script as the gate judges it: its text, and whether it is plain (literal words only). */
export function commandShapes(command: string): CommandShape[] {
  const { commands } = splitCommands(command);
  // A script of only comments has no command to judge; judge its text rather than nothing.
  const texts = commands.length > 0 ? commands : [command.trim()];
  const plain = plainCommands(command, texts);
  return texts.map((text) => {
    const words = plain.get(text) ?? null;
    return { text, plain: words !== null, words };
  });
}

/** The rules "Allow always" may save for one command, narrowest first; the last one is the default. */
export function alwaysOptions(shape: CommandShape): AlwaysOption[] {
  const exact: AlwaysOption = { rule: shape.text, exact: true, words: `exactly \`${shape.text}\`` };
  const [program, sub] = shape.words ?? [];
  if (!shape.plain || program === undefined) return [exact];
  if (sub !== undefined && SUBCOMMANDS.get(program)?.has(sub)) {
    return [exact, { rule: `${program} ${sub} *`, exact: false, words: `\`${program} ${sub}\` with any arguments` }];
  }
  if (ANY_ARGUMENTS.has(program))
    return [exact, { rule: `${program} *`, exact: false, words: `\`${program}\` with any arguments` }];
  return [exact];
}
