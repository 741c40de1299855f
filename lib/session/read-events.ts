import type { Db } from "../db/client";
import type { EventType, SessionEvent } from "./events";

type EventRow = { seq: number; type: string; payload: string; createdAt: Date };

export function eventFromRow(row: EventRow): SessionEvent {
  return { seq: row.seq, type: row.type as EventType, payload: JSON.parse(row.payload), at: row.createdAt.toISOString() } as SessionEvent;
}

/** Reads a page of the log in seq order, after a given seq (exclusive). */
export async function readEvents(db: Db, sessionId: string, opts: { after?: number; limit?: number; upto?: number } = {}): Promise<SessionEvent[]> {
  const rows = await db.sessionEvent.findMany({
    where: { sessionId, seq: { gt: opts.after ?? 0, ...(opts.upto !== undefined ? { lte: opts.upto } : {}) } },
    orderBy: { seq: "asc" },
    take: opts.limit,
    select: { seq: true, type: true, payload: true, createdAt: true },
  });
  return rows.map(eventFromRow);
}
