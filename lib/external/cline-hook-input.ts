import { z } from "zod";

/** What Plangate's Cline plugin sends `plangate hook cline` (./cline-hook.ts), read where it enters the hook. */
export const clineHookInput = z.discriminatedUnion("event", [
  /** Whether this folder is connected (the plugin reads it itself; kept for a plugin of an older plangate). */
  z.object({ event: z.literal("start"), cwd: z.string().min(1).max(4096) }),
  /** The model's submit_plan call; `review_id` when the same plan is already waiting on the desk. */
  z.object({
    event: z.literal("submit_plan"),
    session_id: z.string().min(1).max(200),
    /** Cline's conversation: the backstop hook finds the approval under it (its `taskId`). */
    conversation_id: z.string().min(1).max(200).optional(),
    cwd: z.string().min(1).max(4096),
    plan: z.string().max(200_000),
    review_id: z.string().min(1).max(200).optional(),
  }),
]);
export type ClineHookInput = z.infer<typeof clineHookInput>;

/** What Cline sends its PreToolUse command hook (measured with 3.0.65), as far as the backstop reads it. */
export const clinePreToolUse = z.object({
  taskId: z.string().min(1).max(200),
  workspaceRoots: z.array(z.string().max(4096)).max(50).optional(),
  workspaceInfo: z.object({ rootPath: z.string().max(4096).optional() }).optional(),
  tool_call: z.object({ name: z.string().max(200) }),
});
export type ClinePreToolUse = z.infer<typeof clinePreToolUse>;
