import { z } from "zod";

/** What Plangate's pi extension sends `plangate hook pi` (./pi-hook.ts), read where it enters the hook. */
const base = { session_id: z.string().min(1).max(200), cwd: z.string().min(1).max(4096) };

export const piHookInput = z.discriminatedUnion("event", [
  /** When pi loads the extension: whether this folder is connected (the gate is on). */
  z.object({ event: z.literal("start"), cwd: base.cwd }),
  /** The model's submit_plan call: the plan goes on the desk, the answer waits for a person. */
  z.object({ event: z.literal("submit_plan"), ...base, plan: z.string().max(200_000) }),
  /** With --asks, a changing tool call after the approval: an ask on the desk. */
  z.object({
    event: z.literal("tool_call"),
    ...base,
    tool_name: z.string().max(200),
    input: z.record(z.string(), z.unknown()),
  }),
]);
export type PiHookInput = z.infer<typeof piHookInput>;
