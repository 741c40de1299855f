import { z } from "zod";
import { isPlanFileName } from "./kilo-hook";

/** What Plangate's Kilo plugin sends `plangate hook kilo` (./kilo-hook.ts), read where it enters the hook. */
const base = { session_id: z.string().min(1).max(200), cwd: z.string().min(1).max(4096) };

export const kiloHookInput = z.discriminatedUnion("event", [
  /** When Kilo first calls a tool in a folder: whether this folder is connected (the gate is on). */
  z.object({ event: z.literal("start"), cwd: base.cwd }),
  /**
   * The model's plan_exit call: the plan file it names (relative to Kilo's worktree, as Kilo reads it), or the
   * session's own plan file by name, goes on the desk.
   */
  z.object({
    event: z.literal("plan_exit"),
    ...base,
    worktree: base.cwd.optional(),
    path: z.string().max(4096).optional(),
    session_plan: z.string().refine(isPlanFileName, "a plan file's name").optional(),
  }),
  /** With --asks, a changing tool call: an ask on the desk. */
  z.object({
    event: z.literal("tool_call"),
    ...base,
    worktree: base.cwd.optional(),
    tool_name: z.string().max(200),
    input: z.record(z.string(), z.unknown()),
  }),
]);
export type KiloHookInput = z.infer<typeof kiloHookInput>;
