import { z } from "zod";
import { EXTERNAL_AGENTS } from "@/lib/session/external-agents";

/** A plan an outside agent's hook or plugin submits for review. */
export const submitExternalPlanBody = z
  .object({
    agent: z.enum(EXTERNAL_AGENTS),
    externalSessionId: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    /** The machine the agent runs on (its host name), shown with the folder: the folder is only a label there. */
    machine: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, "a host name (letters, digits, dots, dashes)")
      .optional(),
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
