import { z } from "zod";
import { EXTERNAL_AGENTS } from "@/lib/session/external-agents";

/** A plan an outside agent's hook or plugin submits for review. */
export const submitExternalPlanBody = z
  .object({
    agent: z.enum(EXTERNAL_AGENTS),
    externalSessionId: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    plan: z.string().min(1).max(200_000),
    planFilePath: z.string().min(1).max(4096).optional(),
  })
  .strict();

export const awaitExternalReviewQuery = z.object({
  /** Seconds to wait for a decision (long poll); 0 answers at once. */
  wait: z.coerce.number().min(0).max(60).default(0),
});

export const answeredElsewhereBody = z
  .object({ answer: z.enum(["approved", "rejected", "unknown"]).default("unknown") })
  .strict();
