import type { NewComment } from "./plan-review-blocks";
import type { ThreadAct } from "./plan-thread";

// Pure: what the decision card says and defaults to, from what the person has done on it so far.

const count = (n: number, one: string, many = `${one}s`) => (n === 0 ? [] : [`${n} ${n === 1 ? one : many}`]);

/** What the review holds, in words: "2 comments, 1 suggestion, 1 reply". */
export function reviewSummary(comments: NewComment[], acts: Record<string, ThreadAct>): string {
  const suggestions = comments.filter((c) => c.suggestion !== undefined).length;
  const replies = Object.values(acts).filter((a) => a.reply?.trim()).length;
  const resolved = Object.values(acts).filter((a) => a.resolve).length;
  return [
    ...count(comments.length - suggestions, "comment"),
    ...count(suggestions, "suggestion"),
    ...count(replies, "reply", "replies"),
    ...count(resolved, "thread resolved", "threads resolved"),
  ].join(", ");
}
