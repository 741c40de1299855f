import { z } from "zod";

/** What Plangate's Kilo plugin sends `plangate hook kilo` (./kilo-hook.ts), read where it enters the hook. */
const base = { session_id: z.string().min(1).max(200), cwd: z.string().min(1).max(4096) };

export const kiloHookInput = z.discriminatedUnion("event", [
  /** When Kilo first calls a tool in a folder: whether this folder is connected (the gate is on). */
  z.object({ event: z.literal("start"), cwd: base.cwd }),
  /** The model's plan_exit call: the plan file it names (or Kilo's newest plan) goes on the desk. */
  z.object({ event: z.literal("plan_exit"), ...base, path: z.string().max(4096).optional() }),
  /** With --asks, a changing tool call: an ask on the desk. */
  z.object({
    event: z.literal("tool_call"),
    ...base,
    tool_name: z.string().max(200),
    input: z.record(z.string(), z.unknown()),
  }),
]);
export type KiloHookInput = z.infer<typeof kiloHookInput>;
