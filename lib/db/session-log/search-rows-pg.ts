import "server-only";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { tsvectorRows } from "../../session/log/search-text";
import { type Conn, type Executor, kysely } from "../client";
import { fixedShape } from "./fixed-shape";

/*
 * Full-text search on PostgreSQL: each document is a row of "SessionSearch" (see the 20261201060100_search
 * migration) whose tsvector the app builds (lib/session/log/search-text), matched with @@ through a GIN index and
 * ranked with ts_rank. The table is PostgreSQL's alone, so it is declared here rather than in the Prisma schema.
 */
type PgSearchTables = { SessionSearch: { sessionId: string; terms: string } };

const search = (ex: Executor) => ex.withTables<PgSearchTables>();
const DOCS_PER_INSERT = 100;

// Run by each append that carries text: compiled once (see fixedShape).
const insertDocs = fixedShape<PgSearchTables["SessionSearch"], unknown>((ex, slot, rows) =>
  search(ex)
    .insertInto("SessionSearch")
    .values(
      Array.from({ length: rows }, (_, r) => ({
        sessionId: slot("sessionId", r),
        terms: sql<string>`CAST(${slot("terms", r)} AS tsvector)`,
      })),
    ),
);

/** Adds documents to a session's search rows inside the caller's transaction. */
export async function indexDocsPg(conn: Conn, sessionId: string, bodies: readonly string[]): Promise<void> {
  const rows = bodies.flatMap(tsvectorRows);
  for (let i = 0; i < rows.length; i += DOCS_PER_INSERT) {
    const chunk = rows.slice(i, i + DOCS_PER_INSERT);
    await insertDocs(
      kysely(conn),
      chunk.map((terms) => ({ sessionId, terms })),
    );
  }
}

/** Removes a session's documents (deleting the session would cascade to them too; this keeps dropDocs' meaning). */
export async function dropDocsPg(conn: Conn, sessionId: string): Promise<void> {
  await search(kysely(conn)).deleteFrom("SessionSearch").where("sessionId", "=", sessionId).execute();
}

/** Whether fewer than `cap` documents match (at most `cap` are read: a rare word's few through the GIN index). */
export async function fewerMatchesPg(conn: Conn, query: string, cap: number): Promise<boolean> {
  if (cap === Infinity) return true;
  if (cap <= 0) return false;
  const row = await search(kysely(conn))
    .selectFrom((eb) =>
      eb
        .selectFrom("SessionSearch")
        .select(sql.lit(1).as("one"))
        .where(sql<SqlBool>`"terms" @@ CAST(${query} AS tsquery)`)
        .limit(cap)
        .as("m"),
    )
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0) < cap;
}

/**
 * Which of these sessions have a document matching: their documents read by primary key, whatever the index
 * holds elsewhere. ts_match_vq is @@ written as a function, which no index serves: with the operator the planner
 * may read every match from the GIN index (its estimate can call a common word rare), the very cost a walk over
 * the newest sessions is there to avoid. The ids travel as one JSON array, not one parameter each (a round can
 * walk more sessions than a statement takes parameters).
 */
export async function sessionsMatchingPg(conn: Conn, query: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await search(kysely(conn))
    .selectFrom("SessionSearch as d")
    .select("d.sessionId as id")
    .distinct()
    .where(
      sql<SqlBool>`d."sessionId" = ANY(ARRAY(SELECT json_array_elements_text(CAST(${JSON.stringify(ids)} AS json))))`,
    )
    .where(sql<SqlBool>`ts_match_vq(d."terms", CAST(${query} AS tsquery))`)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Session `s` (the query's alias for "Session") is among all matching sessions, gathered once from the GIN
 * index (ARRAY(...) is computed before the scan, so the planner cannot turn it into a probe per session) and
 * then read by primary key. Cost: every match, read once. `query` is tsQueryText's output.
 */
export function pgSessionAmongMatches(query: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`s."id" = ANY(ARRAY(SELECT "sessionId" FROM "SessionSearch" WHERE "terms" @@ CAST(${query} AS tsquery)))`;
}

/**
 * How well session `s` matches, the ts_rank of its best matching document (the more often and the closer
 * together the words, the higher). Not filtered to matches, ts_rank would give every document a tiny non-zero
 * score.
 */
export function pgSessionRank(query: string): RawBuilder<number | null> {
  return sql<
    number | null
  >`(SELECT max(ts_rank(d."terms", CAST(${query} AS tsquery))) FROM "SessionSearch" d WHERE d."sessionId" = s."id" AND d."terms" @@ CAST(${query} AS tsquery))`;
}

/** TRANSITIONAL: pgSessionAmongMatches as text with one `?`, for listings still on the SQL runner. */
export const PG_SESSION_AMONG_MATCHES =
  's."id" = ANY(ARRAY(SELECT "sessionId" FROM "SessionSearch" WHERE "terms" @@ CAST(? AS tsquery)))';

/** TRANSITIONAL: pgSessionRank as text with two `?` (the same query twice), for listings still on the SQL runner. */
export const PG_SESSION_RANK =
  '(SELECT max(ts_rank(d."terms", CAST(? AS tsquery))) FROM "SessionSearch" d WHERE d."sessionId" = s."id" AND d."terms" @@ CAST(? AS tsquery))';
