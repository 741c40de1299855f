import { z } from "zod";
import { MAIL_TYPES } from "@/lib/team/mailbox";

export const mailboxQuery = z.object({
  /** pending: plan requests not answered yet; the others are stored statuses. */
  status: z.enum(["pending", "unread", "read", "answered"]).optional(),
  type: z.enum(MAIL_TYPES).optional(),
  /** Whose inbox: the lead's unless a member's session id is given. */
  to: z.string().min(1).max(100).optional(),
});
