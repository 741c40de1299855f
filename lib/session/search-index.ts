import type { SqlRunner } from "../db/sql";
import type { NewEvent } from "./events";

export type SearchDoc = { kind: "title" | "message" | "plan"; body: string };

/** Pure: the searchable text an append adds (the title when created, user and assistant messages). */
export function searchDocs(events: readonly NewEvent[]): SearchDoc[] {
  const docs: SearchDoc[] = [];
  for (const e of events) {
    if (e.type === "session.created" && e.payload.title.trim()) docs.push({ kind: "title", body: e.payload.title });
    else if ((e.type === "message.user" || e.type === "message.assistant") && e.payload.text.trim()) docs.push({ kind: "message", body: e.payload.text });
  }
  return docs;
}

/** A session's documents are rowids key * 2^24 + n (see the history migration). */
export const DOCS_PER_SESSION = 2 ** 24;

/** Gives a new session its search key (inside the transaction that creates it). */
export async function assignSearchKey(run: SqlRunner, sessionId: string): Promise<void> {
  await run.execute('UPDATE "Session" SET "searchKey" = (SELECT COALESCE(MAX("searchKey"), 0) + 1 FROM "Session") WHERE "id" = ? AND "searchKey" IS NULL', [sessionId]);
}

/** Adds documents to the full-text index (SQLite FTS5) inside the caller's transaction. */
export async function indexDocs(run: SqlRunner, sessionId: string, docs: readonly SearchDoc[]): Promise<void> {
  if (docs.length === 0) return;
  const [row] = await run.query<{ searchKey: number | null; searchDocs: number }>(
    'UPDATE "Session" SET "searchDocs" = "searchDocs" + ? WHERE "id" = ? RETURNING "searchKey", "searchDocs"',
    [docs.length, sessionId],
  );
  if (!row || row.searchKey === null) return;
  const first = Number(row.searchKey) * DOCS_PER_SESSION + Number(row.searchDocs) - docs.length;
  if (Number(row.searchDocs) > DOCS_PER_SESSION) return;
  for (let i = 0; i < docs.length; i += 100) {
    const chunk = docs.slice(i, i + 100);
    await run.execute(`INSERT INTO "SessionSearch" (rowid, "body") VALUES ${chunk.map(() => "(?, ?)").join(", ")}`, chunk.flatMap((d, j) => [first + i + j, d.body]));
  }
}

/** Removes a session's documents (before the session row goes). */
export async function dropDocs(run: SqlRunner, sessionId: string): Promise<void> {
  const [row] = await run.query<{ searchKey: number | null }>('SELECT "searchKey" FROM "Session" WHERE "id" = ?', [sessionId]);
  if (!row || row.searchKey === null) return;
  const base = Number(row.searchKey) * DOCS_PER_SESSION;
  await run.execute('DELETE FROM "SessionSearch" WHERE rowid BETWEEN ? AND ?', [base, base + DOCS_PER_SESSION - 1]);
}

/**
 * Pure: a user's search text as an FTS5 query. Every word must appear (as a prefix); quotes are doubled so
 * that no FTS operator can be smuggled in. Null when there is nothing to search for.
 */
export function ftsQuery(text: string): string | null {
  const words = text.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.slice(0, 12).map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ");
}
