import { z } from "zod";

// A person on the mailbox page writes as the lead unless `from` names another member's session.
export const sendMailBody = z
  .object({
    to: z.string().min(1).max(100),
    text: z.string().trim().min(1).max(20_000),
    from: z.string().min(1).max(100).optional(),
  })
  .strict();
