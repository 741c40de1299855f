import { z } from "zod";
import { type HookEntry, type HookGroup, ourEntry, withoutOurs } from "./hook-groups";

/**
 * Qwen Code's hooks, as far as Plangate answers them (measured with Qwen Code 0.24.4: docs/agents.md). Its plan
 * mode ends with `exit_plan_mode {plan}`, the plan in the call, which always waits on Qwen's own prompt (its terminal
 * dialog, or an editor's over ACP). A PermissionRequest hook runs before that prompt: its deny blocks the call and
 * the model reads the message; its allow does not skip the prompt for exit_plan_mode (it does for other tools). A
 * PreToolUse hook runs after the prompt, and a PostToolUse hook's context reaches the model as a message. Qwen takes
 * a PermissionRequest hook that fails as no decision (its prompt decides) and lets a tool run when a PreToolUse hook
 * fails, so every answer here is an explicit one.
 */
export const qwenHookInput = z.object({
  session_id: z.string().min(1).max(200),
  cwd: z.string().min(1).max(4096),
  hook_event_name: z.enum(["PermissionRequest", "PreToolUse", "PostToolUse"]),
  tool_name: z.string().max(200),
  tool_input: z.record(z.string(), z.unknown()),
});
export type QwenHookInput = z.infer<typeof qwenHookInput>;

export const QWEN_PLAN_TOOL = "exit_plan_mode";
/** Qwen's write tools and its shell: with --asks their calls go to the desk. */
export const QWEN_ASK_TOOLS = ["write_file", "edit", "replace", "run_shell_command"] as const;

export const qwenPermission = (behavior: "allow" | "deny", message?: string): object => ({
  hookSpecificOutput: {
    hookEventName: "PermissionRequest",
    decision: { behavior, ...(message ? { message } : {}) },
  },
});
export const qwenPreDeny = (reason: string): object => ({
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason },
});
/** After the approved exit_plan_mode: text the model reads next (PostToolUse additionalContext). */
export const qwenContext = (text: string): object => ({
  hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: text },
});

/** A Qwen tool call as the ask Plangate judges (its Claude Code twin's name and input), or null. */
export function qwenAsk(tool: string, input: Record<string, unknown>): { tool: string; input: object } | null {
  if (tool === "run_shell_command" && typeof input.command === "string")
    return { tool: "Bash", input: { command: input.command } };
  if ((tool === "write_file" || tool === "edit" || tool === "replace") && typeof input.file_path === "string")
    return { tool: tool === "write_file" ? "Write" : "Edit", input: { file_path: input.file_path } };
  return null;
}

/** ~/.qwen/settings.json's hooks, as far as Plangate's go (everything else is kept as it is). */
export type QwenHooks = { PermissionRequest?: unknown; PreToolUse?: unknown; PostToolUse?: unknown };

const PLAN_MATCHER = `^${QWEN_PLAN_TOOL}$`;
const ASK_MATCHER = `^(${QWEN_ASK_TOOLS.join("|")})$`;

/**
 * Pure: the hook groups with Plangate's put in (or taken out with `remove`): PermissionRequest for exit_plan_mode
 * (the desk's review, before Qwen's prompt), PreToolUse for exit_plan_mode (nothing approved but what the desk
 * approved; and the asks with `asks`), PostToolUse for it (the approval's notes). Qwen reads a timeout of 1000
 * or more as milliseconds, so it is written in milliseconds.
 */
export function withQwenHooks(
  hooks: QwenHooks,
  o: { command: string; timeoutMs: number; asks: boolean; remove?: boolean },
): Required<{ [K in keyof QwenHooks]: HookGroup[] }> {
  const entry = (): HookEntry => ({ type: "command", name: "plangate", command: o.command, timeout: o.timeoutMs });
  const permission = withoutOurs(hooks.PermissionRequest, "qwen");
  const pre = withoutOurs(hooks.PreToolUse, "qwen");
  const post = withoutOurs(hooks.PostToolUse, "qwen");
  if (o.remove) return { PermissionRequest: permission, PreToolUse: pre, PostToolUse: post };
  const plan = () => ({ matcher: PLAN_MATCHER, hooks: [entry()] });
  return {
    PermissionRequest: [...permission, plan()],
    // Asks on PreToolUse: it runs in every mode (Qwen's auto and yolo modes ask nobody, so no PermissionRequest).
    PreToolUse: [...pre, plan(), ...(o.asks ? [{ matcher: ASK_MATCHER, hooks: [entry()] }] : [])],
    PostToolUse: [...post, plan()],
  };
}

/** Plangate's PermissionRequest entry for exit_plan_mode, if there is one. */
export const qwenPlanHook = (hooks: QwenHooks): HookEntry | null =>
  ourEntry(hooks.PermissionRequest, "qwen", PLAN_MATCHER);
