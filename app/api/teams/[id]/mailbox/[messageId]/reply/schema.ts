import { z } from "zod";

// `from` says who answers (a session id); a person using the mailbox page answers as the lead.
export const mailReplyBody = z
  .object({ approve: z.boolean(), feedback: z.string().max(20_000).optional(), from: z.string().min(1).max(100).optional() })
  .strict();
