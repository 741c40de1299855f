import { z } from "zod";

/** What Plangate's Cline plugin sends `plangate hook cline` (./cline-hook.ts), read where it enters the hook. */
export const clineHookInput = z.discriminatedUnion("event", [
  /** When Cline loads the plugin: whether this folder is connected (the gate is on). */
  z.object({ event: z.literal("start"), cwd: z.string().min(1).max(4096) }),
  /** The model's submit_plan call; `review_id` when the same plan is already waiting on the desk. */
  z.object({
    event: z.literal("submit_plan"),
    session_id: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    plan: z.string().max(200_000),
    review_id: z.string().min(1).max(200).optional(),
  }),
]);
export type ClineHookInput = z.infer<typeof clineHookInput>;
