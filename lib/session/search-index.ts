import type { SqlRunner } from "../db/sql";
import type { NewEvent } from "../core/events";
import { dropDocsPg, indexDocsPg } from "./search-index-pg";

export type SearchDoc = { kind: "title" | "message" | "plan"; body: string };

/** Pure: the searchable text an append adds (the title when created, user and assistant messages). */
export function searchDocs(events: readonly NewEvent[]): SearchDoc[] {
  const docs: SearchDoc[] = [];
  for (const e of events) {
    if (e.type === "session.created" && e.payload.title.trim()) docs.push({ kind: "title", body: e.payload.title });
    else if ((e.type === "message.user" || e.type === "message.assistant") && e.payload.text.trim())
      docs.push({ kind: "message", body: e.payload.text });
  }
  return docs;
}

/** A session's documents are rowids key * 2^24 + n (see the history migration). */
export const DOCS_PER_SESSION = 2 ** 24;

/**
 * Gives a new session its search key (inside the transaction that creates it). SQLite only: PostgreSQL keys
 * its documents by session id (see search-index-pg.ts), and MAX()+1 there would race under READ COMMITTED.
 */
export async function assignSearchKey(run: SqlRunner, sessionId: string): Promise<void> {
  if (run.provider === "postgres") return;
  await run.execute(
    'UPDATE "Session" SET "searchKey" = (SELECT COALESCE(MAX("searchKey"), 0) + 1 FROM "Session") WHERE "id" = ? AND "searchKey" IS NULL',
    [sessionId],
  );
}

/** Adds documents to the full-text index (SQLite FTS5, PostgreSQL tsvector rows) inside the caller's transaction. */
export async function indexDocs(run: SqlRunner, sessionId: string, docs: readonly SearchDoc[]): Promise<void> {
  if (docs.length === 0) return;
  if (run.provider === "postgres")
    return indexDocsPg(
      run,
      sessionId,
      docs.map((d) => d.body),
    );
  const [row] = await run.query<{ searchKey: number | null; searchDocs: number }>(
    'UPDATE "Session" SET "searchDocs" = "searchDocs" + ? WHERE "id" = ? RETURNING "searchKey", "searchDocs"',
    [docs.length, sessionId],
  );
  if (!row || row.searchKey === null) return;
  const first = Number(row.searchKey) * DOCS_PER_SESSION + Number(row.searchDocs) - docs.length;
  if (Number(row.searchDocs) > DOCS_PER_SESSION) return;
  for (let i = 0; i < docs.length; i += 100) {
    const chunk = docs.slice(i, i + 100);
    await run.execute(
      `INSERT INTO "SessionSearch" (rowid, "body") VALUES ${chunk.map(() => "(?, ?)").join(", ")}`,
      chunk.flatMap((d, j) => [first + i + j, d.body]),
    );
  }
}

/** Removes a session's documents (before the session row goes). */
export async function dropDocs(run: SqlRunner, sessionId: string): Promise<void> {
  if (run.provider === "postgres") return dropDocsPg(run, sessionId);
  const [row] = await run.query<{ searchKey: number | null }>('SELECT "searchKey" FROM "Session" WHERE "id" = ?', [
    sessionId,
  ]);
  if (!row || row.searchKey === null) return;
  const base = Number(row.searchKey) * DOCS_PER_SESSION;
  // CAST: a bound JS number arrives as a REAL, and FTS5 ignores a REAL rowid bound (it would scan the whole index).
  await run.execute('DELETE FROM "SessionSearch" WHERE rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)', [
    base,
    base + DOCS_PER_SESSION - 1,
  ]);
}

/** Pure: the words of a search (letters, digits, underscores; at most 12). */
export function searchWords(text: string): string[] {
  return (text.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 12);
}

/**
 * Pure: a user's search text as an FTS5 query. Every word must appear (as a prefix); quotes are doubled so
 * that no FTS operator can be smuggled in. Null when there is nothing to search for.
 */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  return words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ");
}

/** Pure: every group must have one of its whole terms in a document, e.g. ("the") AND ("page" OR "pages"). */
export function wholeTermsMatch(groups: readonly (readonly string[])[]): string {
  return groups.map((g) => `(${g.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ")})`).join(" AND ");
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

// Each step seeks to the first term after the previous one (|| char(1): tokens hold no control characters),
// so a common term's long document list is skipped, not read.
const TERMS_WITH_PREFIX = `WITH RECURSIVE "t"("term", "n") AS (
  SELECT (SELECT "term" FROM "SessionSearchTerms" WHERE "term" >= ? LIMIT 1), 1
  UNION ALL
  SELECT (SELECT v."term" FROM "SessionSearchTerms" v WHERE v."term" >= "t"."term" || char(1) LIMIT 1), "t"."n" + 1
  FROM "t" WHERE substr("t"."term", 1, ?) = ? AND "t"."n" <= ?
) SELECT "term" FROM "t" WHERE substr("term", 1, ?) = ?`;

/** The indexed terms `prefix` (plain, lower case) begins, up to `max` + 1 of them (so "too many" shows). */
export async function termsWithPrefix(run: SqlRunner, prefix: string, max = MAX_TERMS_PER_WORD): Promise<string[]> {
  const n = prefix.length;
  const rows = await run.query<{ term: string }>(TERMS_WITH_PREFIX, [prefix, n, prefix, max, n, prefix]);
  return rows.map((r) => r.term);
}

/** Expands each word of a search into the whole terms it is a prefix of (see TermQuery). */
export async function termQuery(run: SqlRunner, words: readonly string[]): Promise<TermQuery> {
  if (words.length === 0 || !words.every((w) => PLAIN.test(w))) return { kind: "prefix" };
  const groups: string[][] = [];
  for (const word of new Set(words.map((w) => w.toLowerCase()))) {
    const terms = await termsWithPrefix(run, word);
    if (terms.length === 0) return { kind: "nothing" };
    if (terms.length > MAX_TERMS_PER_WORD) return { kind: "prefix" };
    groups.push(terms);
  }
  return { kind: "terms", match: wholeTermsMatch(groups) };
}

/** Whether fewer than `cap` documents match (reads at most `cap` rowids: the answer costs what a small result would). */
export async function fewerMatches(run: SqlRunner, match: string, cap: number): Promise<boolean> {
  if (cap === Infinity) return true;
  if (cap <= 0) return false;
  const [row] = await run.query<{ n: number }>(
    'SELECT count(*) AS "n" FROM (SELECT 1 FROM "SessionSearch" WHERE "SessionSearch" MATCH ? LIMIT ?)',
    [match, cap],
  );
  return Number(row?.n ?? 0) < cap;
}

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
export async function keysMatching(run: SqlRunner, match: string, keys: readonly number[]): Promise<Set<number>> {
  const spans = keySpans(keys);
  if (spans.length === 0) return new Set();
  const rows = await run.query<{ key: number }>(
    `SELECT DISTINCT f.rowid >> 24 AS "key" FROM json_each(?) r CROSS JOIN "SessionSearch" f WHERE f."SessionSearch" MATCH ? ` +
      `AND f.rowid BETWEEN (r.value ->> 0) * ${DOCS_PER_SESSION} AND (r.value ->> 1) * ${DOCS_PER_SESSION} + ${DOCS_PER_SESSION - 1}`,
    [JSON.stringify(spans), match],
  );
  return new Set(rows.map((r) => Number(r.key)));
}

/** SQL, one `?` (the match): session `s` is among all matching sessions. Cost: every match, read once. */
export const SESSION_AMONG_MATCHES =
  's."searchKey" IN (SELECT rowid >> 24 FROM "SessionSearch" WHERE "SessionSearch" MATCH ?)';
