/**
 * Pure: comment threads on a plan, as a pull-request review keeps them. A thread starts with a comment on lines
 * of one version; it is anchored to the text it quoted, so on a later version it sits beside the same text, or
 * is "outdated" (its quote shown) when that text is gone. Only a person resolves a thread, and it stays resolved.
 */

export type StoredComment = {
  id: string;
  version: number;
  lineStart: number;
  lineEnd: number;
  quote: string;
  body: string;
  author: string;
  createdAt: string;
  suggestion: string | null;
  parentId: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
};

export type ThreadComment = Pick<StoredComment, "id" | "version" | "author" | "body" | "suggestion" | "createdAt">;

export type PlanThread = {
  id: string;
  /** The version the thread was started on, and its lines there. */
  version: number;
  lineStart: number;
  lineEnd: number;
  quote: string;
  /** Where the quoted text sits in the version shown; null when it is no longer there. */
  at: { lineStart: number; lineEnd: number } | null;
  status: "open" | "resolved" | "outdated";
  resolvedBy: string | null;
  /** The first comment, then the replies, oldest first. */
  comments: ThreadComment[];
};

/** The lines of `content` that read exactly as `quote`, nearest to where they were (1-based), or null. */
export function locate(quote: string, content: string, near: number): { lineStart: number; lineEnd: number } | null {
  const lines = content.split("\n");
  const want = quote.split("\n");
  let best: number | null = null;
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (!want.every((w, j) => lines[i + j] === w)) continue;
    if (best === null || Math.abs(i + 1 - near) < Math.abs(best + 1 - near)) best = i;
  }
  return best === null ? null : { lineStart: best + 1, lineEnd: best + want.length };
}

const entry = (c: StoredComment): ThreadComment => ({
  id: c.id,
  version: c.version,
  author: c.author,
  body: c.body,
  suggestion: c.suggestion,
  createdAt: c.createdAt,
});

/** Every thread started before `version`, as it stands against that version's text. */
export function threadsOn(comments: readonly StoredComment[], content: string, version: number): PlanThread[] {
  const replies = new Map<string, StoredComment[]>();
  for (const c of comments) if (c.parentId !== null) replies.set(c.parentId, [...(replies.get(c.parentId) ?? []), c]);
  return comments
    .filter((c) => c.parentId === null && c.version < version)
    .map((root) => {
      const at = locate(root.quote, content, root.lineStart);
      return {
        id: root.id,
        version: root.version,
        lineStart: root.lineStart,
        lineEnd: root.lineEnd,
        quote: root.quote,
        at,
        status: root.resolvedAt !== null ? "resolved" : at === null ? "outdated" : "open",
        resolvedBy: root.resolvedBy,
        comments: [entry(root), ...(replies.get(root.id) ?? []).map(entry)],
      };
    });
}

/**
 * The plan with the suggestions applied: each replaces the lines it was made on. Suggestions must not overlap
 * (the index of the first that does is returned instead), so the result never depends on their order.
 */
export function applySuggestions(
  content: string,
  suggestions: readonly { lineStart: number; lineEnd: number; suggestion: string }[],
): { plan: string } | { overlaps: number } {
  const order = suggestions.map((s, index) => ({ ...s, index })).sort((a, b) => a.lineStart - b.lineStart);
  for (let i = 1; i < order.length; i++) {
    const [prev, next] = [order[i - 1], order[i]];
    if (prev && next && next.lineStart <= prev.lineEnd) return { overlaps: next.index };
  }
  const lines = content.split("\n");
  for (const s of [...order].reverse())
    lines.splice(
      s.lineStart - 1,
      s.lineEnd - s.lineStart + 1,
      ...(s.suggestion === "" ? [] : s.suggestion.split("\n")),
    );
  return { plan: lines.join("\n") };
}

/** A comment's lines as the reviewer sends them (1-based, inclusive), with the optional suggested text. */
export type CommentLines = { lineStart: number; lineEnd: number; suggestion?: string | undefined };

/** The commented lines, cut from the version itself (a request never supplies its own quote); null: past the end. */
export function quoteLines(content: string, c: CommentLines): string | null {
  const lines = content.split("\n");
  if (c.lineEnd > lines.length) return null;
  return lines.slice(c.lineStart - 1, c.lineEnd).join("\n");
}

/** The plan with this review's suggestions applied, or why not (none offered, or two overlapping). */
export function suggested(content: string, comments: readonly CommentLines[]): { plan: string } | { problem: string } {
  const offered = comments.flatMap((c) => (c.suggestion !== undefined ? [{ ...c, suggestion: c.suggestion }] : []));
  if (offered.length === 0) return { problem: "applySuggestions: this review has no suggestion" };
  const out = applySuggestions(content, offered);
  if ("overlaps" in out)
    return { problem: `comments: suggestion ${out.overlaps + 1} overlaps another suggestion's lines` };
  return { plan: out.plan };
}
