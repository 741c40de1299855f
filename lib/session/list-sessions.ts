import { z } from "zod";
import type { Db } from "../db/client";
import { SESSION_STATUSES } from "./events";
import { sessionView, type SessionView } from "./get-session";

export const listSessionsQuery = z.object({
  status: z.enum(SESSION_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListSessionsQuery = z.input<typeof listSessionsQuery>;

type Cursor = { at: string; id: string };

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const c = JSON.parse(Buffer.from(raw, "base64url").toString()) as Cursor;
    return typeof c.at === "string" && typeof c.id === "string" ? c : undefined;
  } catch {
    return undefined;
  }
}

/** Sessions by last activity (newest first) with keyset pagination on (lastActivityAt, id). */
export async function listSessions(db: Db, input: ListSessionsQuery = {}): Promise<{ sessions: SessionView[]; nextCursor: string | null }> {
  const query = listSessionsQuery.parse(input);
  const cursor = decodeCursor(query.cursor);
  const at = cursor ? new Date(cursor.at) : undefined;
  const rows = await db.session.findMany({
    where: {
      ...(query.status ? { status: query.status } : {}),
      ...(query.q ? { title: { contains: query.q } } : {}),
      ...(at && cursor ? { OR: [{ lastActivityAt: { lt: at } }, { lastActivityAt: at, id: { lt: cursor.id } }] } : {}),
    },
    orderBy: [{ lastActivityAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor({ at: last.lastActivityAt.toISOString(), id: last.id }) : null;
  return { sessions: page.map(sessionView), nextCursor };
}
