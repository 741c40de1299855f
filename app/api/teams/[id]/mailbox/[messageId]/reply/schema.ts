import { z } from "zod";
import { reviewInput } from "@/lib/plan/plan-comments";

// `from` says who answers (a session id); a person using the mailbox page answers as the lead.
// The lead's card is the session's card: a mode for the teammate, an edited plan, a review with threads.
export const mailReplyBody = z
  .object({
    approve: z.boolean(),
    feedback: z.string().max(20_000).optional(),
    from: z.string().min(1).max(100).optional(),
    mode: z.enum(["acceptEdits", "default"]).optional(),
    plan: z.string().min(1).max(200_000).optional(),
    ...reviewInput,
  })
  .strict();
