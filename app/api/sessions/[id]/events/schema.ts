import { z } from "zod";

export const eventsQuery = z
  .object({
    after: z.coerce.number().int().min(0).optional(),
    /** The page just before this seq (the timeline's "earlier events"); the log's seqs are gap-free. */
    before: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(5000).default(500),
  })
  .refine((q) => q.after === undefined || q.before === undefined, {
    message: "after and before: give one of them, not both",
    path: ["before"],
  });
