import "server-only";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { type SearchDoc, wholeTermsMatch } from "../../session/log/search-text";
import { type Conn, type Executor, kysely, onPostgres } from "../client";
import { raw, shapedQuery } from "../shaped-query";
import { fixedShape } from "./fixed-shape";
import { dropDocsPg, indexDocsPg } from "./search-rows-pg";

/*
 * Full-text search on SQLite: the contentless FTS5 table "SessionSearch" (the history migration) holds each
 * session's documents at rowids key * 2^24 + n, key being Session.searchKey and n counted by Session.searchDocs.
 * FTS5 tables cannot be declared in the Prisma schema, so their columns are declared here.
 */
type FtsTables = {
  SessionSearch: { rowid: number; body: string };
  SessionSearchTerms: { term: string };
};

const fts = (ex: Executor) => ex.withTables<FtsTables>();

/** A session's documents are rowids key * 2^24 + n (see the history migration). */
export const DOCS_PER_SESSION = 2 ** 24;
const DOCS_PER_INSERT = 100;

// Each append that carries text runs these two: compiled once (see fixedShape).
const countDocs = fixedShape<{ id: string; added: number }, { searchKey: number | null; searchDocs: number }>(
  (ex, slot) =>
    ex
      .updateTable("Session")
      .set((eb) => ({ searchDocs: eb("searchDocs", "+", slot("added")) }))
      .where("id", "=", slot("id"))
      .returning(["searchKey", "searchDocs"]),
);
const insertDocs = fixedShape<FtsTables["SessionSearch"], unknown>((ex, slot, rows) =>
  fts(ex)
    .insertInto("SessionSearch")
    .values(Array.from({ length: rows }, (_, r) => ({ rowid: slot("rowid", r), body: slot("body", r) }))),
);

/**
 * Gives a new session its search key (inside the transaction that creates it). SQLite only: PostgreSQL keys
 * its documents by session id (see search-index-pg.ts), and MAX()+1 there would race under READ COMMITTED.
 */
export async function assignSearchKey(conn: Conn, sessionId: string): Promise<void> {
  const db = kysely(conn);
  if (onPostgres(db)) return;
  await db
    .updateTable("Session")
    .set((eb) => ({
      searchKey: eb
        .selectFrom("Session")
        .select((s) => s(s.fn.coalesce(s.fn.max("searchKey"), s.lit(0)), "+", s.lit(1)).as("next")),
    }))
    .where("id", "=", sessionId)
    .where("searchKey", "is", null)
    .execute();
}

/** Adds documents to the full-text index (SQLite FTS5, PostgreSQL tsvector rows) inside the caller's transaction. */
export async function indexDocs(conn: Conn, sessionId: string, docs: readonly SearchDoc[]): Promise<void> {
  if (docs.length === 0) return;
  const db = kysely(conn);
  if (onPostgres(db))
    return indexDocsPg(
      db,
      sessionId,
      docs.map((d) => d.body),
    );
  const [row] = (await countDocs(db, [{ id: sessionId, added: docs.length }])).rows;
  if (!row || row.searchKey === null) return;
  const first = row.searchKey * DOCS_PER_SESSION + row.searchDocs - docs.length;
  if (row.searchDocs > DOCS_PER_SESSION) return;
  for (let i = 0; i < docs.length; i += DOCS_PER_INSERT) {
    const chunk = docs.slice(i, i + DOCS_PER_INSERT);
    await insertDocs(
      db,
      chunk.map((d, j) => ({ rowid: first + i + j, body: d.body })),
    );
  }
}

/** Removes a session's documents (before the session row goes). */
export async function dropDocs(conn: Conn, sessionId: string): Promise<void> {
  const db = kysely(conn);
  if (onPostgres(db)) return dropDocsPg(db, sessionId);
  const row = await db.selectFrom("Session").select("searchKey").where("id", "=", sessionId).executeTakeFirst();
  if (!row || row.searchKey === null) return;
  const base = row.searchKey * DOCS_PER_SESSION;
  // CAST: a bound JS number arrives as a REAL, and FTS5 ignores a REAL rowid bound (it would scan the whole index).
  await fts(db)
    .deleteFrom("SessionSearch")
    .where(sql<SqlBool>`rowid BETWEEN CAST(${base} AS INTEGER) AND CAST(${base + DOCS_PER_SESSION - 1} AS INTEGER)`)
    .execute();
}

/**
 * A search as FTS5 can run it: `terms` names whole terms only (seekable: a range of rowids costs one seek per
 * term plus the documents in it), `nothing` when a word begins no indexed term, `prefix` when the words cannot
 * be expanded (then ftsQuery, whose every opening merges all the matching document lists, rowid bounds or not).
 */
export type TermQuery = { kind: "terms"; match: string } | { kind: "nothing" } | { kind: "prefix" };

// More whole terms than this per word and probing them costs more than the prefix form saves.
const MAX_TERMS_PER_WORD = 32;

// ASCII is the only text where lower-casing in JS is exactly what the unicode61 tokenizer (remove_diacritics 2)
// stores, so only there does a JS prefix compare as the index's terms do.
const PLAIN = /^[A-Za-z0-9]+$/;

/** The indexed terms `prefix` (plain, lower case) begins, up to `max` + 1 of them (so "too many" shows). */
export async function termsWithPrefix(conn: Conn, prefix: string, max = MAX_TERMS_PER_WORD): Promise<string[]> {
  const k = kysely(conn);
  // Each step seeks to the first term after the previous one (|| char(1): tokens hold no control characters),
  // so a common term's long document list is skipped, not read.
  const rows = await prefixTerms(k, "terms", { prefix, n: prefix.length, max }, (bind) => {
    const [p, n, m] = [bind("prefix"), bind("n"), bind("max")];
    return raw(
      k,
      sql<{ term: string }>`WITH RECURSIVE "t"("term", "n") AS (
  SELECT (SELECT "term" FROM "SessionSearchTerms" WHERE "term" >= ${p} LIMIT 1), 1
  UNION ALL
  SELECT (SELECT v."term" FROM "SessionSearchTerms" v WHERE v."term" >= "t"."term" || char(1) LIMIT 1), "t"."n" + 1
  FROM "t" WHERE substr("t"."term", 1, ${n}) = ${p} AND "t"."n" <= ${m}
) SELECT "term" FROM "t" WHERE substr("term", 1, ${n}) = ${p}`,
    );
  });
  return rows.map((r) => r.term);
}
const prefixTerms = shapedQuery<{ term: string }>();

/** Expands each word of a search into the whole terms it is a prefix of (see TermQuery). */
export async function termQuery(conn: Conn, words: readonly string[]): Promise<TermQuery> {
  if (words.length === 0 || !words.every((w) => PLAIN.test(w))) return { kind: "prefix" };
  const groups: string[][] = [];
  for (const word of new Set(words.map((w) => w.toLowerCase()))) {
    const terms = await termsWithPrefix(conn, word);
    if (terms.length === 0) return { kind: "nothing" };
    if (terms.length > MAX_TERMS_PER_WORD) return { kind: "prefix" };
    groups.push(terms);
  }
  return { kind: "terms", match: wholeTermsMatch(groups) };
}

const matching = (match: string) => sql<SqlBool>`"SessionSearch" MATCH ${match}`;

/** Whether fewer than `cap` documents match (reads at most `cap` rowids: the answer costs what a small result would). */
export async function fewerMatches(conn: Conn, match: string, cap: number): Promise<boolean> {
  if (cap === Infinity) return true;
  if (cap <= 0) return false;
  const k = kysely(conn);
  const [row] = await countMatches(k, "fewer", { match, cap }, (bind) =>
    fts(k)
      .selectFrom((eb) =>
        eb
          .selectFrom("SessionSearch")
          .select(sql.lit(1).as("one"))
          .where(matching(bind("match")))
          .limit(bind<number>("cap"))
          .as("m"),
      )
      .select((eb) => eb.fn.countAll<number>().as("n")),
  );
  return Number(row?.n ?? 0) < cap;
}
const countMatches = shapedQuery<{ n: number }>();

// Sessions this close (in search keys) are read as one rowid range: opening the index at a rowid costs about
// what reading ~30 sessions' documents does, and sessions active together were mostly created together.
const SPAN_GAP = 32;

/** Pure: distinct keys as sorted ranges [lo, hi], neighbours at most `gap` apart sharing one range. */
export function keySpans(keys: readonly number[], gap = SPAN_GAP): [number, number][] {
  const spans: [number, number][] = [];
  for (const k of [...new Set(keys)].sort((a, b) => a - b)) {
    const last = spans.at(-1);
    if (last && k - last[1] <= gap) last[1] = k;
    else spans.push([k, k]);
  }
  return spans;
}

/**
 * Which of these sessions (by search key) have a document matching `match`: one seek per range of neighbouring
 * keys, then only those ranges' documents, whatever the index holds elsewhere. CROSS JOIN keeps the ranges the
 * outer loop (else SQLite may scan every match and test it against them), and the bounds come out of JSON as
 * integers: FTS5 ignores a rowid bound that is a REAL, which is how a bound JS number arrives.
 */
export async function keysMatching(conn: Conn, match: string, keys: readonly number[]): Promise<Set<number>> {
  const spans = keySpans(keys);
  if (spans.length === 0) return new Set();
  const k = kysely(conn);
  const per = sql.lit(DOCS_PER_SESSION);
  const rows = await matchingKeys(k, "keys", { spans: JSON.stringify(spans), match }, (bind) =>
    raw(
      k,
      sql<{
        key: number;
      }>`SELECT DISTINCT f.rowid >> 24 AS "key" FROM json_each(${bind("spans")}) r CROSS JOIN "SessionSearch" f WHERE f."SessionSearch" MATCH ${bind("match")} AND f.rowid BETWEEN (r.value ->> 0) * ${per} AND (r.value ->> 1) * ${per} + ${sql.lit(DOCS_PER_SESSION - 1)}`,
    ),
  );
  return new Set(rows.map((r) => Number(r.key)));
}
const matchingKeys = shapedQuery<{ key: number }>();

/** Session `s` (the query's alias for "Session") is among all sessions matching: every match, read once. */
export function sessionAmongMatches(match: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`s."searchKey" IN (SELECT rowid >> 24 FROM "SessionSearch" WHERE "SessionSearch" MATCH ${match})`;
}

/** TRANSITIONAL: sessionAmongMatches as text with one `?` (the match), for listings still on the SQL runner. */
export const SESSION_AMONG_MATCHES =
  's."searchKey" IN (SELECT rowid >> 24 FROM "SessionSearch" WHERE "SessionSearch" MATCH ?)';
