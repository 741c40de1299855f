import "server-only";
import type { EventType, SessionEvent } from "../../session/log/events";
import { type Conn, kysely } from "../client";
import { shapedQuery } from "../shaped-query";

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

const eventRows = shapedQuery<EventRow>();

/** The log in seq order after a seq (exclusive), optionally up to a seq and a page size. */
export async function readEvents(conn: Conn, sessionId: string, opts: ReadOptions = {}): Promise<SessionEvent[]> {
  const k = kysely(conn);
  const { upto, limit } = opts;
  const key = `events:${upto === undefined ? 0 : 1}${limit === undefined ? 0 : 1}`;
  const rows = await eventRows(k, key, { sessionId, after: opts.after ?? 0, upto, limit }, (bind) => {
    let query = k
      .selectFrom("SessionEvent")
      .select(["seq", "type", "payload", "createdAt"])
      .where("sessionId", "=", bind<string>("sessionId"))
      .where("seq", ">", bind<number>("after"));
    if (upto !== undefined) query = query.where("seq", "<=", bind<number>("upto"));
    query = query.orderBy("seq");
    if (limit !== undefined) query = query.limit(bind<number>("limit"));
    return query;
  });
  return rows.map(eventFromRow);
}
