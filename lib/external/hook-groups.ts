import { isPlangateHook } from "./hook-command";

/**
 * Pure: the hook groups Claude Code's descendants read (Gemini CLI's BeforeTool/AfterTool, Factory Droid's
 * PreToolUse/PostToolUse): `[{matcher, hooks: [{type: "command", command, timeout}]}]`, as far as Plangate's own
 * entries go. Everything else in a group is kept as it is.
 */
export type HookEntry = { type?: string; name?: string; command?: string; timeout?: number };
export type HookGroup = { matcher?: string; hooks?: HookEntry[] };

/** The groups with Plangate's entries for `agent` taken out (and groups left empty by that dropped). */
export function withoutOurs(groups: unknown, agent: string): HookGroup[] {
  return (Array.isArray(groups) ? (groups as HookGroup[]) : [])
    .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isPlangateHook(h.command, agent)) }))
    .filter((g) => g.hooks.length > 0);
}

/** Plangate's entry for `agent` in the group with exactly this matcher, if there is one. */
export function ourEntry(groups: unknown, agent: string, matcher: string): HookEntry | null {
  for (const g of Array.isArray(groups) ? (groups as HookGroup[]) : []) {
    if (g.matcher !== matcher) continue;
    const ours = (g.hooks ?? []).find((h) => isPlangateHook(h.command, agent));
    if (ours) return ours;
  }
  return null;
}
