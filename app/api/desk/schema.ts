import { z } from "zod";

export const deskApiQuery = z
  .object({
    agent: z.string().min(1).max(100).optional(),
    workspace: z.string().min(1).max(4096).optional(),
    mine: z.enum(["1", "0"]).optional(),
    /** The page after this cursor (the `next` of the page before). */
    after: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  })
  .strict();
