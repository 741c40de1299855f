import path from "node:path";
import { GEMINI_ASK_TOOLS, GEMINI_PLAN_TOOL } from "./gemini-hook";
import { type HookEntry, type HookGroup, ourEntry, withoutOurs } from "./hook-groups";

/** Gemini CLI's settings, as far as Plangate's hook entries go (everything else is kept as it is). */
export type GeminiHooks = { BeforeTool?: unknown; AfterTool?: unknown };

const PLAN_MATCHER = `^${GEMINI_PLAN_TOOL}$`;
const ASK_MATCHER = `^(${GEMINI_ASK_TOOLS.join("|")})$`;

/**
 * Pure: the BeforeTool and AfterTool groups with Plangate's put in (or taken out with `remove`): BeforeTool for
 * exit_plan_mode (and Gemini's write and shell tools with `asks`), AfterTool for exit_plan_mode (the approval's
 * notes). Other hooks stay as they were; a second connect replaces the first. Gemini's timeout is in ms.
 */
export function withGeminiHooks(
  hooks: GeminiHooks,
  o: { command: string; timeoutMs: number; asks: boolean; remove?: boolean },
): { BeforeTool: HookGroup[]; AfterTool: HookGroup[] } {
  const entry = (): HookEntry => ({ type: "command", name: "plangate", command: o.command, timeout: o.timeoutMs });
  const before = withoutOurs(hooks.BeforeTool, "gemini");
  const after = withoutOurs(hooks.AfterTool, "gemini");
  if (o.remove) return { BeforeTool: before, AfterTool: after };
  return {
    BeforeTool: [
      ...before,
      { matcher: PLAN_MATCHER, hooks: [entry()] },
      ...(o.asks ? [{ matcher: ASK_MATCHER, hooks: [entry()] }] : []),
    ],
    AfterTool: [...after, { matcher: PLAN_MATCHER, hooks: [entry()] }],
  };
}

/** Plangate's BeforeTool entry for exit_plan_mode in the settings' hooks, if there is one. */
export function geminiPlanHook(hooks: GeminiHooks): HookEntry | null {
  return ourEntry(hooks.BeforeTool, "gemini", PLAN_MATCHER);
}

export type TrustLevel = "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST";

const contains = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/**
 * Pure: whether Gemini 0.61 trusts `project` by its trustedFolders.json rules: a rule covers the folders under
 * its path (TRUST_PARENT: under its parent), and the longest covering rule's path decides. Null: no rule covers it.
 */
export function geminiTrusts(rules: Record<string, unknown>, project: string): boolean | null {
  let best: { length: number; trusted: boolean } | null = null;
  for (const [rule, level] of Object.entries(rules)) {
    if (level !== "TRUST_FOLDER" && level !== "TRUST_PARENT" && level !== "DO_NOT_TRUST") continue;
    const base = level === "TRUST_PARENT" ? path.dirname(rule) : rule;
    if (!contains(base, project)) continue;
    if (!best || rule.length > best.length) best = { length: rule.length, trusted: level !== "DO_NOT_TRUST" };
  }
  return best?.trusted ?? null;
}
