import path from "node:path";
import { z } from "zod";

/**
 * Gemini CLI 0.61's hooks, as far as Plangate answers them (measured with the real CLI: README, "On the desk").
 * A BeforeTool hook that fails (a crash, a timeout, no output) lets the tool run, so every answer here is an
 * explicit one: `{}` lets it go on, `{"decision":"deny","reason"}` blocks it and the model reads the reason.
 */
export const geminiHookInput = z.object({
  session_id: z.string().min(1),
  transcript_path: z.string().optional(),
  cwd: z.string().min(1),
  hook_event_name: z.enum(["BeforeTool", "AfterTool"]),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});
export type GeminiHookInput = z.infer<typeof geminiHookInput>;

export const GEMINI_PLAN_TOOL = "exit_plan_mode";
/** The tools that change things (Gemini's write tools and its shell): with --asks their calls go to the desk. */
export const GEMINI_ASK_TOOLS = ["write_file", "replace", "run_shell_command"] as const;

export const geminiGoOn = (): object => ({});
export const geminiDeny = (reason: string): object => ({ decision: "deny", reason });
/** After an approved exit_plan_mode: text the model reads with the tool's result (AfterTool additionalContext). */
export const geminiContext = (text: string): object => ({
  hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: text },
});

/**
 * The plan file exit_plan_mode names, inside Gemini's plans folder: a bare name there, or an absolute path that
 * stays inside it (Gemini refuses others before the hook runs; this refuses them again). Null otherwise.
 */
export function planFileIn(plansDir: string, name: unknown): string | null {
  if (typeof name !== "string" || name === "" || name.includes("\0")) return null;
  const dir = path.resolve(plansDir);
  const file = path.resolve(dir, name);
  const rel = path.relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) ? file : null;
}

/** A Gemini tool call as the ask Plangate judges (its Claude Code twin's name and input), or null. */
export function geminiAsk(tool: string, input: Record<string, unknown>): { tool: string; input: object } | null {
  if (tool === "run_shell_command" && typeof input.command === "string")
    return { tool: "Bash", input: { command: input.command } };
  if ((tool === "write_file" || tool === "replace") && typeof input.file_path === "string")
    return { tool: tool === "replace" ? "Edit" : "Write", input: { file_path: input.file_path } };
  return null;
}
