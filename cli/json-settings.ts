// An agent's JSON settings file (comments and trailing commas allowed, as the agents read them), kept as text so a
// connect edits only Plangate's keys: the text and the object, or an error naming the file when it is not one.
import fs from "node:fs";
import { parse, type ParseError } from "jsonc-parser";

export function readJsonSettings(file: string): { text: string; value: Record<string, unknown> } {
  return parseJsonSettings(file, fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "{}");
}

/** The same, for text read already (a project's file, read without following links). */
export function parseJsonSettings(file: string, text: string): { text: string; value: Record<string, unknown> } {
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`${file} is not a JSON object Plangate can read`);
  return { text, value: parsed as Record<string, unknown> };
}

/** The object under `hooks` (Gemini CLI's and Qwen Code's settings), empty when there is none. */
export function hooksIn(value: Record<string, unknown>): Record<string, unknown> {
  const hooks = value.hooks;
  return hooks && typeof hooks === "object" && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : {};
}
