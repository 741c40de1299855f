// What `plangate connect amp` keeps in a project's `.amp/settings.json`: Plangate's delegate as the first rule of
// `amp.permissions`, and `amp.dangerouslyAllowAll: false`, since Amp lets every call through before any rule when
// it is true, and takes the project's value over the global one (which Amp's own "Allow All for Every Session"
// writes). The settings are the repository's, so the result is read back as Amp reads it (the last of two equal
// keys wins) before anything is written.
import fs from "node:fs";
import path from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { parseJsonSettings } from "./json-settings";

const RULES = "amp.permissions";
const ALLOW_ALL = "amp.dangerouslyAllowAll";

export type Rule = Record<string, unknown>;

export const rulesIn = (value: Record<string, unknown>): Rule[] =>
  Array.isArray(value[RULES]) ? (value[RULES] as Rule[]).filter((r) => r && typeof r === "object") : [];

/** Why Amp would not hand every call to the delegate under these settings; empty when it would. */
export function gateProblems(value: Record<string, unknown>, ours: Rule): string[] {
  const problems: string[] = [];
  if (JSON.stringify(rulesIn(value)[0]) !== JSON.stringify(ours))
    problems.push("its first permission rule is not Plangate's delegate");
  if (value[ALLOW_ALL] !== false) problems.push(`${ALLOW_ALL} is not false there`);
  return problems;
}

const edit = (text: string, key: string, value: unknown) =>
  applyEdits(text, modify(text, [key], value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));

/**
 * The settings text with Plangate's rule first and allow-all off (with remove: the rule out, and allow-all as Amp
 * has it without Plangate), every other rule and key kept; an error when Amp would read it otherwise.
 */
export function withDelegate(file: string, text: string, ours: Rule, remove: boolean): string {
  const value = parseJsonSettings(file, text).value;
  const others = rulesIn(value).filter((r) => r.to !== ours.to);
  if (remove) {
    const out = edit(text, RULES, others.length ? others : undefined);
    return value[ALLOW_ALL] === false ? edit(out, ALLOW_ALL, undefined) : out;
  }
  const out = edit(edit(text, RULES, [ours, ...others]), ALLOW_ALL, false);
  const problems = gateProblems(parseJsonSettings(file, out).value, ours);
  if (problems.length > 0)
    throw new Error(`${file}: Amp would not read Plangate's rule (${problems.join("; ")}): a key given twice?`);
  return out;
}

/**
 * The settings file Amp reads for a thread started in `cwd`: the nearest `.amp/settings.json(c)` from there up to
 * the git repository's top (only `cwd` itself outside a repository); null when there is none.
 */
export function settingsAmpReads(cwd: string): string | null {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    for (const name of ["settings.json", "settings.jsonc"]) {
      const file = path.join(dir, ".amp", name);
      if (fs.existsSync(file)) return file;
    }
    if (fs.existsSync(path.join(dir, ".git")) || path.dirname(dir) === dir) return null;
    if (dir === cwd && !insideGit(cwd)) return null;
  }
}

const insideGit = (cwd: string): boolean => {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, ".git"))) return true;
    if (path.dirname(dir) === dir) return false;
  }
};

/** Whether Amp, started in `cwd`, hands every call to Plangate's delegate (`ours`) with allow-all off. */
export function delegateInForce(cwd: string, ours: (file: string) => Rule): boolean {
  const file = settingsAmpReads(cwd);
  if (file === null) return false;
  try {
    return gateProblems(parseJsonSettings(file, fs.readFileSync(file, "utf8")).value, ours(file)).length === 0;
  } catch {
    return false;
  }
}
