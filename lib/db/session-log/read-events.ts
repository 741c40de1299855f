import "server-only";
import type { EventType, SessionEvent } from "../../core/events";
import { type Conn, kysely } from "../client";

export type EventRow = { seq: number; type: string; payload: string; createdAt: Date | string };

export function eventFromRow(row: EventRow): SessionEvent {
  return {
    seq: Number(row.seq),
    type: row.type as EventType,
    payload: JSON.parse(row.payload),
    at: new Date(row.createdAt).toISOString(),
  } as SessionEvent;
}

export type ReadOptions = { after?: number; limit?: number; upto?: number };

/** The log in seq order after a seq (exclusive), optionally up to a seq and a page size. */
export async function readEvents(conn: Conn, sessionId: string, opts: ReadOptions = {}): Promise<SessionEvent[]> {
  let query = kysely(conn)
    .selectFrom("SessionEvent")
    .select(["seq", "type", "payload", "createdAt"])
    .where("sessionId", "=", sessionId)
    .where("seq", ">", opts.after ?? 0);
  if (opts.upto !== undefined) query = query.where("seq", "<=", opts.upto);
  query = query.orderBy("seq");
  if (opts.limit !== undefined) query = query.limit(opts.limit);
  const rows = await query.execute();
  return rows.map(eventFromRow);
}
