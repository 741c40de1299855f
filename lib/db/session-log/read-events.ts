import "server-only";
import type { EventType, SessionEvent } from "../../session/log/events";
import { type Conn, type Db, type Executor, kysely, onPostgres, withTransaction } from "../client";
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

type EventPage = { key: string; values: Record<string, unknown>; build: Parameters<typeof eventRows>[3] };

function eventPage(k: Executor, sessionId: string, opts: ReadOptions): EventPage {
  const { upto, limit } = opts;
  return {
    key: `events:${upto === undefined ? 0 : 1}${limit === undefined ? 0 : 1}`,
    values: { sessionId, after: opts.after ?? 0, upto, limit },
    build: (bind) => {
      let query = k
        .selectFrom("SessionEvent")
        .select(["seq", "type", "payload", "createdAt"])
        .where("sessionId", "=", bind<string>("sessionId"))
        .where("seq", ">", bind<number>("after"));
      if (upto !== undefined) query = query.where("seq", "<=", bind<number>("upto"));
      query = query.orderBy("seq");
      if (limit !== undefined) query = query.limit(bind<number>("limit"));
      return query;
    },
  };
}

/** The log in seq order after a seq (exclusive), optionally up to a seq and a page size. */
export async function readEvents(conn: Conn, sessionId: string, opts: ReadOptions = {}): Promise<SessionEvent[]> {
  const k = kysely(conn);
  const page = eventPage(k, sessionId, opts);
  return (await eventRows(k, page.key, page.values, page.build)).map(eventFromRow);
}

/**
 * Committed events only, for what is sent to a live stream (an event of a transaction that may still roll back must
 * never go out). PostgreSQL: a pooled connection sees nothing else. SQLite shares one connection: read at once when
 * no transaction is open on it, else under its transaction lock.
 */
export async function readCommittedEvents(db: Db, sessionId: string, opts: ReadOptions = {}): Promise<SessionEvent[]> {
  const k = kysely(db);
  if (onPostgres(k)) return readEvents(db, sessionId, opts);
  const page = eventPage(k, sessionId, opts);
  const now = eventRows.now(k, page.key, page.values, page.build);
  if (now) return now.map((row) => eventFromRow(row as EventRow));
  return withTransaction(db, (trx) => readEvents(trx, sessionId, opts));
}
