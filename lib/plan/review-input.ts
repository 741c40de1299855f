import type { Db } from "../db/client";
import type { ReviewedVersion } from "../db/plans/reviews";
import { AppError } from "../errors";
import { listComments, type ThreadInput } from "./plan-comments";
import { applySuggestions } from "./plan-threads";

/** The plan with this review's suggestions applied; a review with none, or with overlapping ones, is refused. */
export function suggested(
  content: string,
  comments: { lineStart: number; lineEnd: number; suggestion?: string }[],
): string {
  const offered = comments.flatMap((c) => (c.suggestion !== undefined ? [{ ...c, suggestion: c.suggestion }] : []));
  if (offered.length === 0) throw new AppError("bad_request", "applySuggestions: this review has no suggestion");
  const out = applySuggestions(content, offered);
  if ("overlaps" in out)
    throw new AppError("bad_request", `comments: suggestion ${out.overlaps + 1} overlaps another suggestion's lines`);
  return out.plan;
}

/**
 * The threads a review answers: each must be one started on an earlier version of this plan (an id from anywhere
 * else is refused, naming it). A reply keeps its thread's lines and quote.
 */
export async function threadsAnswered(db: Db, version: ReviewedVersion, threads: ThreadInput[]) {
  if (threads.length === 0) return [];
  const roots = new Map(
    (await listComments(db, version.planId))
      .filter((c) => c.parentId === null && c.version < version.version)
      .map((c) => [c.id, c]),
  );
  return threads.map((t, i) => {
    const root = roots.get(t.id);
    if (!root) throw new AppError("bad_request", `threads.${i}: this plan has no earlier thread ${t.id}`);
    return {
      ...t,
      quote: root.quote,
      root: { lineStart: root.lineStart, lineEnd: root.lineEnd, quote: root.quote },
    };
  });
}
