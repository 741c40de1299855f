import { z } from "zod";

export const replyBody = z
  .object({
    reply: z.enum(["once", "always", "reject"]),
    message: z.string().max(10_000).optional(),
    scope: z.enum(["session", "workspace"]).optional(),
  })
  .strict();
