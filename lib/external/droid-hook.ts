import { z } from "zod";
import { isPlangateHook } from "./hook-command";
import { type HookEntry, type HookGroup, ourEntry, withoutOurs } from "./hook-groups";

/**
 * Factory Droid's hooks, as far as Plangate answers them (measured with droid 0.225.2: docs/agents.md). Its spec
 * mode ends with `ExitSpecMode {title?, plan}`, the plan in the call. A PreToolUse deny blocks it and the model reads
 * the reason ("Error: <reason>") and plans again; an allow approves it, but nothing said with it reaches the model:
 * a PostToolUse hook's additionalContext does (a message after the tool's result). Droid lets the tool run when its
 * hook exits 1, prints nothing or garbage, or times out, so every answer here is an explicit one.
 */
export const droidHookInput = z.object({
  session_id: z.string().min(1).max(200),
  cwd: z.string().min(1).max(4096),
  hook_event_name: z.enum(["PreToolUse", "PostToolUse"]),
  tool_name: z.string().max(200),
  tool_input: z.record(z.string(), z.unknown()),
});
export type DroidHookInput = z.infer<typeof droidHookInput>;

export const DROID_PLAN_TOOL = "ExitSpecMode";
/** Droid's shell and its file-writing tools: with --asks their calls go to the desk. */
export const DROID_ASK_TOOLS = ["Execute", "Create", "Edit", "MultiEdit", "ApplyPatch"] as const;

const decision = (permissionDecision: "allow" | "deny", reason?: string): object => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision,
    ...(reason ? { permissionDecisionReason: reason } : {}),
  },
});
export const droidAllow = (): object => decision("allow");
export const droidDeny = (reason: string): object => decision("deny", reason);
/** After a tool ran: nothing to add. */
export const droidNothing = (): object => ({});
/** After the approved ExitSpecMode: text the model reads next (PostToolUse additionalContext). */
export const droidContext = (text: string): object => ({
  hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: text },
});

/** A Droid tool call as the ask Plangate judges (its Claude Code twin's name and input), or null. */
export function droidAsk(tool: string, input: Record<string, unknown>): { tool: string; input: object } | null {
  if (tool === "Execute" && typeof input.command === "string")
    return { tool: "Bash", input: { command: input.command } };
  if ((tool === "Create" || tool === "Edit" || tool === "MultiEdit") && typeof input.file_path === "string")
    return { tool: tool === "Create" ? "Write" : "Edit", input: { file_path: input.file_path } };
  return null;
}

/** `~/.factory/hooks.json`: the events at the top level (a file wrapped in `{"hooks": …}` is ignored by Droid). */
export type DroidHooks = { PreToolUse?: unknown; PostToolUse?: unknown };

const PLAN_MATCHER = `^${DROID_PLAN_TOOL}$`;
const ASK_MATCHER = `^(${DROID_ASK_TOOLS.join("|")})$`;

/**
 * Pure: the PreToolUse and PostToolUse groups with Plangate's put in (or taken out with `remove`): PreToolUse for
 * ExitSpecMode (and Droid's shell and write tools with `asks`), PostToolUse for ExitSpecMode (the approval's
 * notes). Other hooks stay as they were; a second connect replaces the first. Droid's timeout is in seconds.
 */
export function withDroidHooks(
  hooks: DroidHooks,
  o: { command: string; timeoutSec: number; asks: boolean; remove?: boolean },
): { PreToolUse: HookGroup[]; PostToolUse: HookGroup[] } {
  const entry = (): HookEntry => ({ type: "command", command: o.command, timeout: o.timeoutSec });
  const pre = withoutOurs(hooks.PreToolUse, "droid");
  const post = withoutOurs(hooks.PostToolUse, "droid");
  if (o.remove) return { PreToolUse: pre, PostToolUse: post };
  return {
    PreToolUse: [
      ...pre,
      { matcher: PLAN_MATCHER, hooks: [entry()] },
      ...(o.asks ? [{ matcher: ASK_MATCHER, hooks: [entry()] }] : []),
    ],
    PostToolUse: [...post, { matcher: PLAN_MATCHER, hooks: [entry()] }],
  };
}

/** Plangate's PreToolUse entry for ExitSpecMode in the hooks file, if there is one. */
export const droidPlanHook = (hooks: DroidHooks): HookEntry | null => ourEntry(hooks.PreToolUse, "droid", PLAN_MATCHER);

/**
 * Pure: whether a project's own hooks (its `.factory/hooks.json`, or `hooks` in its `.factory/settings.json`) hook
 * ExitSpecMode with a command that is not Plangate's. Droid runs a project's hooks with no trust step, beside the
 * user's, and takes the first decision it finds: a repository could approve its own plan.
 */
export function plantedPlanHooks(files: { hooksJson?: unknown; settingsJson?: unknown }): boolean {
  const events = [files.hooksJson, (files.settingsJson as { hooks?: unknown } | undefined)?.hooks] as (
    | DroidHooks
    | undefined
  )[];
  return events.some((hooks) =>
    (Array.isArray(hooks?.PreToolUse) ? (hooks.PreToolUse as HookGroup[]) : []).some((g) => {
      let matches = true;
      try {
        matches = !g.matcher || g.matcher === "*" || new RegExp(g.matcher).test(DROID_PLAN_TOOL);
      } catch {}
      return matches && (g.hooks ?? []).some((h) => !isPlangateHook(h.command, "droid"));
    }),
  );
}
