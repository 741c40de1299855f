// The review's request bodies (zod): a decision with its comments, thread answers and suggestions; an override; a mail reply.
import { z } from "zod";

/** A comment as the reviewer sends it: lines of the version under review (1-based, inclusive), the text, and
 * optionally a suggestion: the text those lines should read instead (empty: remove them). */
export const commentInput = z
  .object({
    lineStart: z.number().int().min(1),
    lineEnd: z.number().int().min(1),
    body: z.string().trim().max(5_000),
    suggestion: z.string().max(20_000).optional(),
  })
  .strict()
  .refine((c) => c.lineEnd >= c.lineStart, { message: "lineEnd must not come before lineStart", path: ["lineEnd"] })
  .refine((c) => c.body.length > 0 || c.suggestion !== undefined, {
    message: "a comment needs words or a suggestion",
    path: ["body"],
  });
export type CommentInput = z.infer<typeof commentInput>;

/** What a reviewer does to a thread started on an earlier version: reply to it, resolve it, or both. */
export const threadInput = z
  .object({
    id: z.string().min(1).max(100),
    reply: z.string().trim().min(1).max(5_000).optional(),
    resolve: z.literal(true).optional(),
  })
  .strict()
  .refine((t) => t.reply !== undefined || t.resolve !== undefined, {
    message: "a thread needs a reply or resolve: true",
    path: ["reply"],
  });
export type ThreadInput = z.infer<typeof threadInput>;

/** The review that goes with a decision, as on a pull request: new comments, answers to threads, suggestions. */
export const reviewInput = {
  comments: z.array(commentInput).max(100).optional(),
  threads: z.array(threadInput).max(100).optional(),
  /** Approve with this review's suggestions applied (under a review policy: send back as a new version). */
  applySuggestions: z.boolean().optional(),
};

export const planDecisionBody = z
  .object({
    decision: z.enum(["approve", "reject", "abandon"]),
    feedback: z.string().max(20_000).optional(),
    mode: z.enum(["default", "acceptEdits", "auto"]).optional(),
    plan: z.string().min(1).max(200_000).optional(),
    ...reviewInput,
  })
  .strict()
  .refine((b) => b.decision !== "abandon" || (!b.comments?.length && !b.threads?.length), {
    message: "comments and threads go with approve or reject, not abandon",
    path: ["comments"],
  })
  .refine((b) => !b.applySuggestions || (b.decision === "approve" && b.plan === undefined), {
    message: "applySuggestions goes with approve, and not with an edited plan",
    path: ["applySuggestions"],
  });
export type PlanDecision = z.infer<typeof planDecisionBody>;

export const overrideBody = z
  .object({
    reason: z.string().trim().min(3, "say why the policy is overridden").max(2000),
    mode: z.enum(["default", "acceptEdits"]).optional(),
  })
  .strict();

/** A person's answer in a team's mailbox: the lead's card (a mode for the teammate, an edit, a review with threads). */
export const mailReplyBody = z
  .object({
    approve: z.boolean(),
    feedback: z.string().max(20_000).optional(),
    /** Who answers (a session id); a person using the mailbox page answers as the lead. */
    from: z.string().min(1).max(100).optional(),
    mode: z.enum(["acceptEdits", "default"]).optional(),
    plan: z.string().min(1).max(200_000).optional(),
    ...reviewInput,
  })
  .strict();
export type PlanReply = Omit<z.infer<typeof mailReplyBody>, "from">;

/** A mailbox reply as the one decision body. */
export function fromMailReply(reply: PlanReply): PlanDecision {
  const feedback = reply.feedback?.trim() || undefined;
  const extra = {
    ...(reply.comments?.length ? { comments: reply.comments } : {}),
    ...(reply.threads?.length ? { threads: reply.threads } : {}),
    // Words typed before approving go with the approval, as notes: never dropped.
    ...(feedback ? { feedback } : {}),
  };
  if (!reply.approve) return { decision: "reject", ...extra };
  return {
    decision: "approve",
    ...(reply.mode ? { mode: reply.mode } : {}),
    ...(reply.plan !== undefined ? { plan: reply.plan } : {}),
    ...(reply.applySuggestions ? { applySuggestions: true } : {}),
    ...extra,
  };
}
