import { z } from "zod";
import { cursorParam, limitParam } from "@/lib/session/log/cursor";
import { MAIL_TYPES } from "@/lib/team/mailbox";
import { INBOX_PAGE, inboxCursor } from "@/lib/team/read-inbox";

export const mailboxQuery = z
  .object({
    /** pending: plan requests not answered yet; the others are stored statuses. */
    status: z.enum(["pending", "unread", "read", "answered"]).optional(),
    type: z.enum(MAIL_TYPES).optional(),
    /** Whose inbox: the lead's unless a member's session id is given. */
    to: z.string().min(1).max(100).optional(),
    limit: limitParam(INBOX_PAGE),
    /** The page after this cursor (the `next` of the page before). */
    after: cursorParam(inboxCursor).optional(),
  })
  .strict();
