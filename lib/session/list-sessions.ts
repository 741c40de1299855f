import { z } from "zod";
import { sql, type Db } from "../db/client";
import type { SqlArg, SqlRunner } from "../db/sql";
import { PERMISSION_MODES } from "../permission/modes";
import { SESSION_STATUSES } from "../core/events";
import { sessionView, type SessionView } from "./get-session";
import { fewerMatches, ftsQuery, searchWords, keysMatching, SESSION_AMONG_MATCHES, termQuery } from "./search-index";
import {
  fewerMatchesPg,
  PG_SESSION_AMONG_MATCHES,
  PG_SESSION_RANK,
  sessionsMatchingPg,
  tsQueryText,
} from "./search-index-pg";

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
 * search, a snippet of what matched (the matched words between \u0002 and \u0003) and, on PostgreSQL, its rank
 * (ts_rank of its best matching document: higher is better; the list itself stays in activity order).
 */
export type SessionListItem = SessionView & { planStatus: string | null; snippet?: string; rank?: number };

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

const COLUMNS = [
  "id",
  "title",
  "workspace",
  "agent",
  "model",
  "permissionMode",
  "status",
  "planSlug",
  "parentId",
  "forkedFromId",
  "teamId",
  "role",
  "lastSeq",
  "lastActivityAt",
  "createdAt",
]
  .map((c) => `s."${c}"`)
  .join(", ");

// The latest plan's status of session `s`, a column of every listing.
const PLAN_STATUS =
  '(SELECT p."status" FROM "Plan" p WHERE p."sessionId" = s."id" ORDER BY p."updatedAt" DESC LIMIT 1) AS "planStatus"';

type Row = Parameters<typeof sessionView>[0] & { planStatus: string | null; rank?: number | null };

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
 * One snippet per listed session (the index keeps no text): its title, else its newest plan version, else its
 * newest message holding the first word, read from the listed sessions' own rows in one statement, so the cost
 * follows the page, not the matches.
 */
async function snippets(run: SqlRunner, words: string[], rows: Row[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const rest: string[] = [];
  for (const r of rows) {
    const found = words.length ? snippetOf(r.title, words) : null;
    if (found !== null) out.set(r.id, found);
    else if (words.length) rest.push(r.id);
  }
  if (rest.length === 0) return out;
  const like = `%${words[0]!.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  // PostgreSQL's LIKE minds case; SQLite's (what the snippets were written for) does not, for ASCII.
  const LIKE = run.provider === "postgres" ? "ILIKE" : "LIKE";
  const texts = await run.query<{ id: string; plan: string | null; message: string | null }>(
    `WITH "x" AS MATERIALIZED (SELECT s."id", (SELECT v."content" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" ` +
      `WHERE p."sessionId" = s."id" AND v."content" ${LIKE} ? ESCAPE '\\' ORDER BY v."version" DESC LIMIT 1) AS "plan" FROM "Session" s WHERE s."id" IN (${rest.map(() => "?").join(", ")})) ` +
      `SELECT "id", "plan", CASE WHEN "plan" IS NULL THEN (SELECT e."payload" FROM "SessionEvent" e WHERE e."sessionId" = "x"."id" ` +
      `AND e."type" IN ('message.user', 'message.assistant') AND e."payload" ${LIKE} ? ESCAPE '\\' ORDER BY e."seq" DESC LIMIT 1) END AS "message" FROM "x"`,
    [like, ...rest, like],
  );
  for (const t of texts) {
    const text =
      t.plan ?? (t.message === null ? null : String((JSON.parse(t.message) as { text?: unknown }).text ?? ""));
    const found = text === null ? null : snippetOf(text, words);
    if (found !== null) out.set(t.id, found);
  }
  return out;
}

/** SQL conditions on `s` and their arguments, ANDed. */
type Where = { sql: string[]; args: SqlArg[] };

const and = (...parts: Where[]): Where => ({ sql: parts.flatMap((p) => p.sql), args: parts.flatMap((p) => p.args) });
const clause = (sql: string, ...args: SqlArg[]): Where => ({ sql: [sql], args });
// Written as a range on lastActivityAt plus a tie-break, not as one OR: the OR form makes SQLite gather and sort
// every older session (a "multi-index OR"), where a range walks the index newest first and stops at the limit.
const after = (c: Cursor | undefined): Where =>
  c
    ? clause('s."lastActivityAt" <= ? AND (s."lastActivityAt" < ? OR s."id" < ?)', new Date(c.at), new Date(c.at), c.id)
    : { sql: [], args: [] };
const sqlWhere = (w: Where) => (w.sql.length ? ` WHERE ${w.sql.join(" AND ")}` : "");
const ORDER_BY = ' ORDER BY s."lastActivityAt" DESC, s."id" DESC';
const ORDER = `${ORDER_BY} LIMIT ?`;

function selectRows(run: SqlRunner, where: Where, limit: number): Promise<Row[]> {
  return run.query<Row>(`SELECT ${COLUMNS}, ${PLAN_STATUS} FROM "Session" s${sqlWhere(where)}${ORDER}`, [
    ...where.args,
    limit,
  ]);
}

/**
 * How far a search reads before it changes plan: each round, the count may read `docsPerCandidate` rowids for
 * every session the walk would look at. Walking a session costs ~3 µs (its row, its share of one range read),
 * reading a rowid ~0.1 µs (50k sessions), so 32 gives the two halves of a round about the same time. Tests set 0
 * (walk only), Infinity (set only), or 1 (switch from one to the other early).
 */
export type SearchBudget = { docsPerCandidate: number };
const BUDGET: SearchBudget = { docsPerCandidate: 32 };

/**
 * A search's page (limit + 1 rows), by one of two plans that give the same rows. Few matches: take them all
 * from the index and sort (cost follows the matches). Many: walk the sessions newest first, as the list does,
 * and read the index only over the walked sessions' rowid ranges (cost follows the page). Which is cheaper is
 * not known up front, so rounds alternate a bounded count with a bounded walk, each four times the last, and the
 * first to finish answers: never far from the cheaper plan, whether a word is in every session or a few old ones.
 */
async function searchRows(
  run: SqlRunner,
  filters: Where,
  cursor: Cursor | undefined,
  words: string[],
  limit: number,
  budget: SearchBudget,
): Promise<Row[]> {
  if (run.provider === "postgres") return searchRowsPg(run, filters, cursor, words, limit, budget);
  const terms = await termQuery(run, words);
  if (terms.kind === "nothing") return [];
  if (terms.kind === "prefix")
    return selectRows(
      run,
      and(filters, after(cursor), clause(SESSION_AMONG_MATCHES, ftsQuery(words.join(" ")))),
      limit + 1,
    );
  const { match } = terms;
  const hits: string[] = [];
  let from = cursor;
  for (let chunk = limit + 1; ; chunk *= 4) {
    if (await fewerMatches(run, match, chunk * budget.docsPerCandidate))
      return selectRows(run, and(filters, after(cursor), clause(SESSION_AMONG_MATCHES, match)), limit + 1);
    const where = and(filters, after(from));
    const walked = await run.query<{ id: string; at: string | Date; key: number | null }>(
      `SELECT s."id", s."lastActivityAt" AS "at", s."searchKey" AS "key" FROM "Session" s${sqlWhere(where)}${ORDER}`,
      [...where.args, chunk],
    );
    const matched = await keysMatching(
      run,
      match,
      walked.flatMap((c) => (c.key === null ? [] : [Number(c.key)])),
    );
    hits.push(...walked.filter((c) => c.key !== null && matched.has(Number(c.key))).map((c) => c.id));
    const last = walked.at(-1);
    if (hits.length > limit || walked.length < chunk || !last) {
      const page = hits.slice(0, limit + 1);
      return page.length
        ? selectRows(run, clause(`s."id" IN (${page.map(() => "?").join(", ")})`, ...page), limit + 1)
        : [];
    }
    from = { at: new Date(last.at).getTime(), id: last.id };
  }
}

/**
 * PostgreSQL's search page: searchRows' two plans and rounds, on the tsvector rows. The planner is not left to
 * choose: it knows only a sample's most common lexemes (a rarer word's count is a fixed guess), and one EXISTS
 * statement, left to it, walked all 50k sessions of a test database for a word in 5 of them (0.3 s) while this
 * takes the GIN path within a round. The page keeps the list's order rather than the rank's: the
 * keyset cursor on (lastActivityAt, id) stays exact, and a common word's page costs what the page does, where
 * ranking would score every match first. Each row still carries its rank, computed for the page's rows only.
 */
async function searchRowsPg(
  run: SqlRunner,
  filters: Where,
  cursor: Cursor | undefined,
  words: string[],
  limit: number,
  budget: SearchBudget,
): Promise<Row[]> {
  const query = tsQueryText(words);
  if (query === null) return [];
  const ranked = (where: Where) =>
    run.query<Row>(
      `SELECT ${COLUMNS}, ${PLAN_STATUS}, ${PG_SESSION_RANK} AS "rank" FROM (SELECT s."id" FROM "Session" s${sqlWhere(where)}${ORDER}) "page" JOIN "Session" s ON s."id" = "page"."id"${ORDER_BY}`,
      [query, query, ...where.args, limit + 1],
    );
  const hits: string[] = [];
  let from = cursor;
  for (let chunk = limit + 1; ; chunk *= 4) {
    if (await fewerMatchesPg(run, query, chunk * budget.docsPerCandidate))
      return ranked(and(filters, after(cursor), clause(PG_SESSION_AMONG_MATCHES, query)));
    const where = and(filters, after(from));
    const walked = await run.query<{ id: string; at: string | Date }>(
      `SELECT s."id", s."lastActivityAt" AS "at" FROM "Session" s${sqlWhere(where)}${ORDER}`,
      [...where.args, chunk],
    );
    const matched = await sessionsMatchingPg(
      run,
      query,
      walked.map((c) => c.id),
    );
    hits.push(...walked.filter((c) => matched.has(c.id)).map((c) => c.id));
    const last = walked.at(-1);
    if (hits.length > limit || walked.length < chunk || !last) {
      const page = hits.slice(0, limit + 1);
      return page.length ? ranked(clause(`s."id" IN (${page.map(() => "?").join(", ")})`, ...page)) : [];
    }
    from = { at: new Date(last.at).getTime(), id: last.id };
  }
}

/** Sessions by last activity (newest first) with keyset pagination on (lastActivityAt, id); a search keeps that order. */
export async function listSessions(
  db: Db,
  input: ListSessionsQuery = {},
  budget: SearchBudget = BUDGET,
): Promise<{ sessions: SessionListItem[]; nextCursor: string | null }> {
  const query = listSessionsQuery.parse(input);
  const filters: Where = { sql: [], args: [] };
  const add = (sql: string, value: SqlArg) => (filters.sql.push(sql), filters.args.push(value));
  if (query.status) add('s."status" = ?', query.status);
  if (query.mode) add('s."permissionMode" = ?', query.mode);
  if (query.workspace) add('s."workspace" = ?', query.workspace);
  if (query.team) add('s."teamId" = ?', query.team);
  const cursor = decodeCursor(query.cursor);
  const run = await sql(db);
  const words = query.q === undefined ? [] : searchWords(query.q);
  const rows = words.length
    ? await searchRows(run, filters, cursor, words, query.limit, budget)
    : await selectRows(run, and(filters, after(cursor)), query.limit + 1);
  const shown = rows.slice(0, query.limit);
  const found = await snippets(run, words, shown);
  const page = shown.map((r) => {
    const snippet = found.get(r.id);
    return {
      ...sessionView(r),
      planStatus: r.planStatus,
      ...(snippet ? { snippet } : {}),
      ...(r.rank == null ? {} : { rank: Number(r.rank) }),
    };
  });
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last ? encodeCursor({ at: Date.parse(last.lastActivityAt), id: last.id }) : null;
  return { sessions: page, nextCursor };
}
