import { z } from "zod";
import type { Db } from "../db/client";
import {
  listSessionRows,
  type ListCursor,
  type SearchBudget,
  searchSessionRows,
  type SessionFilter,
  type SessionListRow,
} from "../db/session-reads/session-list";
import { listSnippetTexts } from "../db/session-reads/snippet-texts";
import { sessionView } from "../db/session-log/read-state";
import { PERMISSION_MODES } from "../permission/modes";
import { SESSION_STATUSES } from "./log/events";
import { searchWords } from "./log/search-text";
import type { SessionListItem } from "./views/session-view";

export type { SessionListItem } from "./views/session-view";
export type { SearchBudget } from "../db/session-reads/session-list";

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

function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeCursor(raw: string | undefined): ListCursor | undefined {
  if (!raw) return undefined;
  try {
    const c = JSON.parse(Buffer.from(raw, "base64url").toString()) as ListCursor;
    return typeof c.at === "number" && typeof c.id === "string" ? c : undefined;
  } catch {
    return undefined;
  }
}

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
 * newest message holding the first word.
 */
async function snippets(db: Db, words: string[], rows: SessionListRow[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (words.length === 0) return out;
  const rest: string[] = [];
  for (const r of rows) {
    const found = snippetOf(r.title, words);
    if (found !== null) out.set(r.id, found);
    else rest.push(r.id);
  }
  for (const t of await listSnippetTexts(db, rest, words[0]!)) {
    const text = t.plan ?? t.message;
    const found = text === null ? null : snippetOf(text, words);
    if (found !== null) out.set(t.id, found);
  }
  return out;
}

const BUDGET: SearchBudget = { docsPerCandidate: 32 };

/** Sessions by last activity (newest first) with keyset pagination on (lastActivityAt, id); a search keeps that order. */
export async function listSessions(
  db: Db,
  input: ListSessionsQuery = {},
  /** The workspace roots the reader may read (readableRoots); null: every session. */
  roots: readonly string[] | null = null,
  budget: SearchBudget = BUDGET,
): Promise<{ sessions: SessionListItem[]; nextCursor: string | null }> {
  const query = listSessionsQuery.parse(input);
  const filter: SessionFilter = {
    status: query.status,
    mode: query.mode,
    workspace: query.workspace,
    team: query.team,
    ...(roots ? { roots } : {}),
  };
  const cursor = decodeCursor(query.cursor);
  const words = query.q === undefined ? [] : searchWords(query.q);
  const rows = words.length
    ? await searchSessionRows(db, filter, cursor, words, query.limit, budget)
    : await listSessionRows(db, filter, cursor, query.limit);
  const shown = rows.slice(0, query.limit);
  const found = await snippets(db, words, shown);
  const page = shown.map((r): SessionListItem => {
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
