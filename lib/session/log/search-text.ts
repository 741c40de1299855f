import type { NewEvent } from "./events";

/*
 * Pure: a search's text as the two full-text indexes read it. SQLite (FTS5, unicode61 tokenizer with
 * remove_diacritics 2) takes match expressions; PostgreSQL takes tsvector and tsquery input made here rather than
 * by to_tsvector, so that matching is language-neutral and reads like SQLite's tokenizer: runs of letters and
 * digits, lower case, accents dropped, anything else (underscores included) a separator. to_tsvector('simple')
 * would keep "foo.bar.com" and "/usr/bin" as one token (so "bar" would not find them) and lower-case "É" only
 * when the database's locale knows it.
 */

export type SearchDoc = { kind: "title" | "message" | "plan"; body: string };

/** The searchable text an append adds (the title when created, user and assistant messages). */
export function searchDocs(events: readonly NewEvent[]): SearchDoc[] {
  const docs: SearchDoc[] = [];
  for (const e of events) {
    if (e.type === "session.created" && e.payload.title.trim()) docs.push({ kind: "title", body: e.payload.title });
    else if ((e.type === "message.user" || e.type === "message.assistant") && e.payload.text.trim())
      docs.push({ kind: "message", body: e.payload.text });
  }
  return docs;
}

/** The words of a search (letters, digits, underscores; at most 12). */
export function searchWords(text: string): string[] {
  return (text.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 12);
}

/**
 * A user's search text as an FTS5 query. Every word must appear (as a prefix); quotes are doubled so that no
 * FTS operator can be smuggled in. Null when there is nothing to search for.
 */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  return words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ");
}

/** Every group must have one of its whole terms in a document, e.g. ("the") AND ("page" OR "pages"). */
export function wholeTermsMatch(groups: readonly (readonly string[])[]): string {
  return groups.map((g) => `(${g.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ")})`).join(" AND ");
}

// A search is at most 200 characters, so a lexeme cut to 200 code points still begins with every word that
// could be asked for (and is far under PostgreSQL's 2047-byte limit, which would otherwise drop it).
const MAX_LEXEME = 200;
// tsvector positions stop at 16383 and keep 256 per lexeme (PostgreSQL clamps the same way in to_tsvector).
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
// A tsvector's lexemes may total 1 MB; a document with more distinct words is split over rows of at most this.
const MAX_ROW_BYTES = 256 * 1024;

/** The lexemes of a text, in order: letter and digit runs of its NFKC form, lower case, without accents. */
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
 * A lexeme quoted for tsvector or tsquery input. Lexemes hold only letters and digits, but quoting still
 * doubles ' and escapes \ so that nothing in one could ever be read as an operator, a weight or a prefix mark.
 */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** A document as tsvector input, one string per row (several only past MAX_ROW_BYTES of distinct words). */
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
 * A search's words (searchWords) as tsquery input: every word must be in the document as a prefix ('pag':*),
 * all of them in the same document. A word the tokenizer splits ("the_list") is a phrase whose last token is a
 * prefix, as FTS5 reads "the_list"*. Null when no word has a letter or digit (FTS5 then finds nothing either).
 * The text is only ever quoted lexemes and the operators written here.
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
