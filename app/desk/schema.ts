import { z } from "zod";

/** The desk's address: its filters and the open item, each optional; empty means "any". */
export const deskQuery = z.object({
  agent: z
    .string()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
  workspace: z
    .string()
    .max(4096)
    .optional()
    .transform((v) => v || undefined),
  mine: z.enum(["1", ""]).optional(),
  item: z
    .string()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
  after: z
    .string()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
});
