import { z } from "zod";

export const replyBody = z
  .object({
    reply: z.enum(["once", "always", "reject"]),
    message: z.string().max(10_000).optional(),
    scope: z.enum(["session", "workspace"]).optional(),
    /** For "always": the rules to save, each one of those the request offers (narrower than the default, or equal). */
    rules: z.array(z.string().min(1).max(10_000)).min(1).max(100).optional(),
    /** With "once" on a held path: an owner's reason for overriding the review policy (recorded in the audit log). */
    reason: z.string().trim().min(3, "say why the review policy is overridden").max(2000).optional(),
  })
  .strict();
