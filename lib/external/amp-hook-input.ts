import { z } from "zod";

/** What Plangate's Amp plugin sends `plangate hook amp` (./amp-hook.ts), read where it enters the hook. */
export const ampHookInput = z.discriminatedUnion("event", [
  /** Whether this folder is connected. */
  z.object({ event: z.literal("start"), cwd: z.string().min(1).max(4096) }),
  /** The model's submit_plan call, under Amp's thread: the delegate finds the approval by that thread. */
  z.object({
    event: z.literal("submit_plan"),
    session_id: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    plan: z.string().max(200_000),
  }),
  /** A changing tool call the plugin's own gate asks about: may it go on in this thread and folder? */
  z.object({
    event: z.literal("tool_call"),
    session_id: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    tool_name: z.string().min(1).max(200),
  }),
]);
export type AmpHookInput = z.infer<typeof ampHookInput>;

/** A tool call's arguments, as Amp hands its delegate on stdin (a JSON object, nothing else). */
export const ampToolInput = z.record(z.string(), z.unknown());
