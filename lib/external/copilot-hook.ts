import path from "node:path";
import { z } from "zod";

/**
 * GitHub Copilot CLI's hooks, as far as Plangate answers them (measured with Copilot CLI 1.0.102: docs/agents.md).
 * Its plan mode writes the plan to `<COPILOT_HOME>/session-state/<session>/plan.md` and calls
 * `exit_plan_mode {summary}`; a `preToolUse` hook sees the call (the plan is not in it). A deny blocks it and the
 * model reads "Denied by preToolUse hook: <reason>"; an allow approves it, and its additionalContext reaches the
 * model as a message. Copilot lets the tool run when its hook prints nothing or garbage or times out, so every
 * answer here is an explicit one.
 */
export const copilotHookInput = z.object({
  // Copilot's session ids are UUIDs; the id names a folder the hook reads, so nothing else is taken.
  sessionId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/),
  cwd: z.string().min(1).max(4096),
  toolName: z.string().max(200),
  toolArgs: z.record(z.string(), z.unknown()).default({}),
});
export type CopilotHookInput = z.infer<typeof copilotHookInput>;

export const COPILOT_PLAN_TOOL = "exit_plan_mode";
/** Copilot's shell and its write tools: with --asks their calls go to the desk. */
export const COPILOT_ASK_TOOLS = ["bash", "create", "edit", "apply_patch"] as const;

export const copilotAllow = (context?: string): object => ({
  permissionDecision: "allow",
  ...(context ? { additionalContext: context } : {}),
});
export const copilotDeny = (reason: string): object => ({
  permissionDecision: "deny",
  permissionDecisionReason: reason,
});

/** The plan file of a session: `<copilotHome>/session-state/<sessionId>/plan.md` (the id is checked by the schema). */
export const copilotPlanFile = (copilotHome: string, sessionId: string): string =>
  path.join(copilotHome, "session-state", sessionId, "plan.md");

/** A Copilot tool call as the ask Plangate judges (its Claude Code twin's name and input), or null. */
export function copilotAsk(tool: string, input: Record<string, unknown>): { tool: string; input: object } | null {
  if (tool === "bash" && typeof input.command === "string") return { tool: "Bash", input: { command: input.command } };
  if ((tool === "create" || tool === "edit") && typeof input.path === "string")
    return { tool: tool === "create" ? "Write" : "Edit", input: { file_path: input.path } };
  return null;
}

/**
 * Plangate's own hooks file, `<COPILOT_HOME>/hooks/plangate.json`, in Copilot's format (version 1): exit_plan_mode,
 * and Copilot's shell and write tools always (its plan mode's own check lets many writing commands through, so in a
 * connected folder they are refused until an approval; with `asks` they go to the desk after it).
 */
export function copilotHooksFile(o: { command: string; timeoutSec: number; asks: boolean }): object {
  const entry = (matcher: string, bash: string) => ({ type: "command", matcher, bash, timeoutSec: o.timeoutSec });
  return {
    version: 1,
    hooks: {
      preToolUse: [
        entry(COPILOT_PLAN_TOOL, o.command),
        entry(COPILOT_ASK_TOOLS.join("|"), o.asks ? `${o.command} --asks` : o.command),
      ],
    },
  };
}
