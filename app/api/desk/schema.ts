import { z } from "zod";

export const deskApiQuery = z
  .object({
    agent: z.string().min(1).max(100).optional(),
    workspace: z.string().min(1).max(4096).optional(),
    mine: z.enum(["1", "0"]).optional(),
  })
  .strict();
