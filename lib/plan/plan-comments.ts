import { z } from "zod";
import type { Db } from "../db/client";
import { listPlanComments } from "../db/plans/comments";
import { AppError } from "../errors";

/** A comment as the reviewer sends it: lines of the version under review (1-based, inclusive) and the text. */
export const commentInput = z
  .object({
    lineStart: z.number().int().min(1),
    lineEnd: z.number().int().min(1),
    body: z.string().trim().min(1).max(5_000),
  })
  .strict()
  .refine((c) => c.lineEnd >= c.lineStart, { message: "lineEnd must not come before lineStart", path: ["lineEnd"] });
export type CommentInput = z.infer<typeof commentInput>;

export type PlanComment = {
  id: string;
  version: number;
  lineStart: number;
  lineEnd: number;
  quote: string;
  body: string;
  author: string;
  createdAt: string;
};
/** A comment on an earlier version, seen from a later one: resolved when its lines are no longer there as they were. */
export type CarriedComment = PlanComment & { resolved: boolean };

/** The commented lines, cut from the version itself (a request never supplies its own quote). */
export function quoteLines(content: string, c: CommentInput, index: number): string {
  const lines = content.split("\n");
  if (c.lineEnd > lines.length)
    throw new AppError("bad_request", `comments.${index}: the plan has ${lines.length} lines, not ${c.lineEnd}`);
  return lines.slice(c.lineStart - 1, c.lineEnd).join("\n");
}

const lineWords = (c: { lineStart: number; lineEnd: number }) =>
  c.lineStart === c.lineEnd ? `Line ${c.lineStart}` : `Lines ${c.lineStart}–${c.lineEnd}`;

/** The comments as the model reads them: each quoting its lines, then the reviewer's words. */
export function formatComments(
  comments: { lineStart: number; lineEnd: number; quote: string; body: string }[],
): string {
  if (comments.length === 0) return "";
  const blocks = comments.map(
    (c) =>
      `- ${lineWords(c)}:\n${c.quote
        .split("\n")
        .map((l) => `  > ${l}`)
        .join("\n")}\n  ${c.body.replace(/\n/g, "\n  ")}`,
  );
  return `Comments on lines of the plan (${comments.length}):\n${blocks.join("\n")}`;
}

/** Every comment on a plan, by version and line. */
export async function listComments(db: Db, planId: string): Promise<PlanComment[]> {
  return (await listPlanComments(db, planId)).map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** Pure: an earlier comment is resolved in a later version when the lines it quoted are no longer there as they were. */
export function carry(comments: PlanComment[], laterContent: string): CarriedComment[] {
  return comments.map((c) => ({ ...c, resolved: !laterContent.includes(c.quote) }));
}
