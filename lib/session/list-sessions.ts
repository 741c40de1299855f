import { z } from "zod";
import { sql, type Db } from "../db/client";
import type { SqlArg } from "../db/sql";
import { PERMISSION_MODES } from "../permission/modes";
import { SESSION_STATUSES } from "./events";
import { sessionView, type SessionView } from "./get-session";
import { ftsQuery } from "./search-index";

export const listSessionsQuery = z.object({
  status: z.enum(SESSION_STATUSES).optional(),
  mode: z.enum(PERMISSION_MODES).optional(),
  workspace: z.string().min(1).max(4096).optional(),
  team: z.string().min(1).max(100).optional(),
  /** Full-text: every word must appear (as a prefix) in the title, a message or a plan. */
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListSessionsQuery = z.input<typeof listSessionsQuery>;

/**
 * A listed session, with its latest plan's status (draft, submitted, approved, rejected, abandoned) and, for a
 * search, a snippet of what matched (the matched words between \u0002 and \u0003).
 */
export type SessionListItem = SessionView & { planStatus: string | null; snippet?: string };

type Cursor = { at: number; id: string };

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const c = JSON.parse(Buffer.from(raw, "base64url").toString()) as Cursor;
    return typeof c.at === "number" && typeof c.id === "string" ? c : undefined;
  } catch {
    return undefined;
  }
}

const COLUMNS = ["id", "title", "workspace", "agent", "model", "permissionMode", "status", "planSlug", "parentId", "forkedFromId", "teamId", "role", "lastSeq", "lastActivityAt", "createdAt"]
  .map((c) => `s."${c}"`)
  .join(", ");

type Row = Parameters<typeof sessionView>[0] & { planStatus: string | null };

/** The text around the first of `words` in `text`, the word marked with \u0002…\u0003; null when none is there. */
export function snippetOf(text: string, words: string[], radius = 60): string | null {
  const lower = text.toLowerCase();
  let at = -1;
  let word = "";
  for (const w of words) {
    const i = lower.indexOf(w.toLowerCase());
    if (i !== -1 && (at === -1 || i < at)) [at, word] = [i, w];
  }
  if (at === -1) return null;
  const start = Math.max(0, at - radius);
  const end = Math.min(text.length, at + word.length + radius);
  const flat = (s: string) => s.replace(/\s+/g, " ");
  return `${start > 0 ? "…" : ""}${flat(text.slice(start, at))}\u0002${text.slice(at, at + word.length)}\u0003${flat(text.slice(at + word.length, end))}${end < text.length ? "…" : ""}`;
}

/**
 * One snippet per listed session (the index keeps no text): its title, then a plan or message holding a
 * searched word, read from that session's own rows, so the cost follows the page, not the matches.
 */
async function snippets(db: Db, q: string, rows: Row[]): Promise<Map<string, string>> {
  const words = (q.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 12);
  const out = new Map<string, string>();
  if (words.length === 0) return out;
  const run = await sql(db);
  const like = `%${words[0]!.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  for (const r of rows) {
    let found = snippetOf(r.title, words);
    if (found === null) {
      const [plan] = await run.query<{ t: string }>(
        'SELECT v."content" AS "t" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" WHERE p."sessionId" = ? AND v."content" LIKE ? ESCAPE \'\\\' ORDER BY v."version" DESC LIMIT 1',
        [r.id, like],
      );
      const [message] = plan
        ? []
        : await run.query<{ t: string }>('SELECT "payload" AS "t" FROM "SessionEvent" WHERE "sessionId" = ? AND "type" IN (\'message.user\', \'message.assistant\') AND "payload" LIKE ? ESCAPE \'\\\' ORDER BY "seq" DESC LIMIT 1', [r.id, like]);
      const text = plan?.t ?? (message ? String((JSON.parse(message.t) as { text?: unknown }).text ?? "") : null);
      found = text === null ? null : snippetOf(text, words);
    }
    if (found !== null) out.set(r.id, found);
  }
  return out;
}

/** Sessions by last activity (newest first) with keyset pagination on (lastActivityAt, id). */
export async function listSessions(db: Db, input: ListSessionsQuery = {}): Promise<{ sessions: SessionListItem[]; nextCursor: string | null }> {
  const query = listSessionsQuery.parse(input);
  const where: string[] = [];
  const args: SqlArg[] = [];
  const add = (clause: string, ...values: SqlArg[]) => (where.push(clause), args.push(...values));
  if (query.status) add('s."status" = ?', query.status);
  if (query.mode) add('s."permissionMode" = ?', query.mode);
  if (query.workspace) add('s."workspace" = ?', query.workspace);
  if (query.team) add('s."teamId" = ?', query.team);
  if (query.q !== undefined) {
    const match = ftsQuery(query.q);
    // A match's rowid names its session (searchKey * 2^24 + n): no lookup per matching document.
    if (match) add('s."searchKey" IN (SELECT rowid >> 24 FROM "SessionSearch" WHERE "SessionSearch" MATCH ?)', match);
  }
  const cursor = decodeCursor(query.cursor);
  if (cursor) add('(s."lastActivityAt" < ? OR (s."lastActivityAt" = ? AND s."id" < ?))', new Date(cursor.at), new Date(cursor.at), cursor.id);
  const rows = await (await sql(db)).query<Row>(
    `SELECT ${COLUMNS}, (SELECT p."status" FROM "Plan" p WHERE p."sessionId" = s."id" ORDER BY p."updatedAt" DESC LIMIT 1) AS "planStatus" ` +
      `FROM "Session" s${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY s."lastActivityAt" DESC, s."id" DESC LIMIT ?`,
    [...args, query.limit + 1],
  );
  const shown = rows.slice(0, query.limit);
  const found = query.q !== undefined ? await snippets(db, query.q, shown) : new Map<string, string>();
  const page = shown.map((r) => {
    const snippet = found.get(r.id);
    return { ...sessionView(r), planStatus: r.planStatus, ...(snippet ? { snippet } : {}) };
  });
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor({ at: Date.parse(last.lastActivityAt), id: last.id }) : null;
  return { sessions: page, nextCursor };
}
