import { z } from "zod";
import type { Db } from "../db/client";
import { listPlanComments } from "../db/plans/comments";
import { AppError } from "../errors";
import type { StoredComment } from "./plan-threads";

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
  /** Approve the plan with the suggestions of this review applied (the agent gets the plan as changed). */
  applySuggestions: z.boolean().optional(),
};
export type CommentInput = z.infer<typeof commentInput>;

export type PlanComment = StoredComment;
/** The commented lines, cut from the version itself (a request never supplies its own quote). */
export function quoteLines(content: string, c: CommentInput, index: number): string {
  const lines = content.split("\n");
  if (c.lineEnd > lines.length)
    throw new AppError("bad_request", `comments.${index}: the plan has ${lines.length} lines, not ${c.lineEnd}`);
  return lines.slice(c.lineStart - 1, c.lineEnd).join("\n");
}

const lineWords = (c: { lineStart: number; lineEnd: number }) =>
  c.lineStart === c.lineEnd ? `Line ${c.lineStart}` : `Lines ${c.lineStart}–${c.lineEnd}`;

const quoted = (text: string, mark: string) =>
  text
    .split("\n")
    .map((l) => `  ${mark} ${l}`)
    .join("\n");

/** The comments as the model reads them: each quoting its lines, then the reviewer's words and suggestion. */
export function formatComments(
  comments: { lineStart: number; lineEnd: number; quote: string; body: string; suggestion?: string }[],
): string {
  if (comments.length === 0) return "";
  const blocks = comments.map((c) =>
    [
      `- ${lineWords(c)}:\n${quoted(c.quote, ">")}`,
      ...(c.body ? [`  ${c.body.replace(/\n/g, "\n  ")}`] : []),
      ...(c.suggestion !== undefined
        ? [
            c.suggestion === ""
              ? "  Suggested: remove these lines."
              : `  Suggested text for these lines:\n${quoted(c.suggestion, "+")}`,
          ]
        : []),
    ].join("\n"),
  );
  return `Comments on lines of the plan (${comments.length}):\n${blocks.join("\n")}`;
}

/** Replies to earlier threads, and the threads the reviewer resolved, as the model reads them. */
export function formatThreads(answered: { quote: string; reply?: string; resolve?: true }[]): string {
  if (answered.length === 0) return "";
  const lines = answered.map(
    (t) => `- On “${t.quote.split("\n")[0]}”: ${[t.reply, t.resolve ? "(resolved)" : ""].filter(Boolean).join(" ")}`,
  );
  return `On earlier comments (${answered.length}):\n${lines.join("\n")}`;
}

/** Every comment on a plan, by version and line. */
export async function listComments(db: Db, planId: string): Promise<PlanComment[]> {
  return (await listPlanComments(db, planId)).map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
  }));
}
