import type { SqlRunner } from "../db/sql";

/*
 * Full-text search on PostgreSQL: each document is a row of "SessionSearch" (see the 20261201060100_search
 * migration) whose tsvector the app builds, matched with @@ through a GIN index and ranked with ts_rank. The
 * lexemes are made here rather than by to_tsvector, so that matching is language-neutral and reads like SQLite's
 * unicode61 tokenizer (remove_diacritics 2): runs of letters and digits, lower case, accents dropped, anything
 * else (underscores included) a separator. to_tsvector('simple') would keep "foo.bar.com" and "/usr/bin" as one
 * token (so "bar" would not find them) and lower-case "É" only when the database's locale knows it.
 */

// A search is at most 200 characters, so a lexeme cut to 200 code points still begins with every word that
// could be asked for (and is far under PostgreSQL's 2047-byte limit, which would otherwise drop it).
const MAX_LEXEME = 200;
// tsvector positions stop at 16383 and keep 256 per lexeme (PostgreSQL clamps the same way in to_tsvector).
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
// A tsvector's lexemes may total 1 MB; a document with more distinct words is split over rows of at most this.
const MAX_ROW_BYTES = 256 * 1024;

/** Pure: the lexemes of a text, in order: letter and digit runs of its NFKC form, lower case, without accents. */
export function searchTokens(text: string): string[] {
  // Lower-casing before NFD lets "İ" fold to "i" (its dot is a combining mark); U+0300–U+036F are the accents.
  const folded = text
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC");
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).map((t) =>
    t.length <= MAX_LEXEME ? t : Array.from(t).slice(0, MAX_LEXEME).join(""),
  );
}

/**
 * Pure: a lexeme quoted for tsvector or tsquery input. Lexemes hold only letters and digits, but quoting still
 * doubles ' and escapes \ so that nothing in one could ever be read as an operator, a weight or a prefix mark.
 */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** Pure: a document as tsvector input, one string per row (several only past MAX_ROW_BYTES of distinct words). */
export function tsvectorRows(body: string): string[] {
  const rows: string[] = [];
  let positions = new Map<string, number[]>();
  let bytes = 0;
  let position = 0;
  const flush = () => {
    if (positions.size > 0)
      rows.push([...positions].map(([lexeme, at]) => `${quoteLexeme(lexeme)}:${at.join(",")}`).join(" "));
    positions = new Map();
    bytes = 0;
    position = 0;
  };
  for (const token of searchTokens(body)) {
    let at = positions.get(token);
    if (!at) {
      const size = Buffer.byteLength(token);
      if (bytes + size > MAX_ROW_BYTES) flush();
      at = [];
      positions.set(token, at);
      bytes += size;
    }
    position = Math.min(position + 1, MAX_POSITION);
    if (at.length < MAX_POSITIONS && at.at(-1) !== position) at.push(position);
  }
  flush();
  return rows;
}

/**
 * Pure: a search's words (searchWords) as tsquery input: every word must be in the document as a prefix
 * ('pag':*), all of them in the same document. A word the tokenizer splits ("the_list") is a phrase whose
 * last token is a prefix, as FTS5 reads "the_list"*. Null when no word has a letter or digit (FTS5 then finds
 * nothing either). The text is only ever quoted lexemes and the operators written here.
 */
export function tsQueryText(words: readonly string[]): string | null {
  const parts = new Set<string>();
  for (const word of words) {
    const tokens = searchTokens(word);
    if (tokens.length === 0) continue;
    const phrase = tokens
      .map((t, i) => (i === tokens.length - 1 ? `${quoteLexeme(t)}:*` : quoteLexeme(t)))
      .join(" <-> ");
    parts.add(tokens.length > 1 ? `(${phrase})` : phrase);
  }
  return parts.size > 0 ? [...parts].join(" & ") : null;
}

/** Adds documents to a session's search rows inside the caller's transaction. */
export async function indexDocsPg(run: SqlRunner, sessionId: string, bodies: readonly string[]): Promise<void> {
  const rows = bodies.flatMap(tsvectorRows);
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    await run.execute(
      `INSERT INTO "SessionSearch" ("sessionId", "terms") VALUES ${chunk.map(() => "(?, CAST(? AS tsvector))").join(", ")}`,
      chunk.flatMap((terms) => [sessionId, terms]),
    );
  }
}

/** Removes a session's documents (deleting the session would cascade to them too; this keeps dropDocs' meaning). */
export async function dropDocsPg(run: SqlRunner, sessionId: string): Promise<void> {
  await run.execute('DELETE FROM "SessionSearch" WHERE "sessionId" = ?', [sessionId]);
}

/** Whether fewer than `cap` documents match (at most `cap` are read: a rare word's few through the GIN index). */
export async function fewerMatchesPg(run: SqlRunner, query: string, cap: number): Promise<boolean> {
  if (cap === Infinity) return true;
  if (cap <= 0) return false;
  const [row] = await run.query<{ n: number }>(
    'SELECT count(*) AS "n" FROM (SELECT 1 FROM "SessionSearch" WHERE "terms" @@ CAST(? AS tsquery) LIMIT ?) "m"',
    [query, cap],
  );
  return Number(row?.n ?? 0) < cap;
}

/**
 * Which of these sessions have a document matching: their documents read by primary key, whatever the index
 * holds elsewhere. ts_match_vq is @@ written as a function, which no index serves: with the operator the planner
 * may read every match from the GIN index (its estimate can call a common word rare), the very cost a walk over
 * the newest sessions is there to avoid. The ids travel as one JSON array, not one `?` each (a round can walk
 * more sessions than a statement takes parameters).
 */
export async function sessionsMatchingPg(run: SqlRunner, query: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await run.query<{ id: string }>(
    'SELECT DISTINCT d."sessionId" AS "id" FROM "SessionSearch" d WHERE d."sessionId" = ANY(ARRAY(SELECT json_array_elements_text(CAST(? AS json)))) ' +
      'AND ts_match_vq(d."terms", CAST(? AS tsquery))',
    [JSON.stringify(ids), query],
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * SQL, one `?` (tsQueryText's output): session `s` is among all matching sessions, gathered once from the GIN
 * index (ARRAY(...) is computed before the scan, so the planner cannot turn it into a probe per session) and
 * then read by primary key. Cost: every match, read once.
 */
export const PG_SESSION_AMONG_MATCHES =
  's."id" = ANY(ARRAY(SELECT "sessionId" FROM "SessionSearch" WHERE "terms" @@ CAST(? AS tsquery)))';

/**
 * SQL, two `?` (the same query twice): how well session `s` matches, the ts_rank of its best matching document
 * (the more often and the closer together the words, the higher). Not filtered to matches, ts_rank would give
 * every document a tiny non-zero score.
 */
export const PG_SESSION_RANK =
  '(SELECT max(ts_rank(d."terms", CAST(? AS tsquery))) FROM "SessionSearch" d WHERE d."sessionId" = s."id" AND d."terms" @@ CAST(? AS tsquery))';
