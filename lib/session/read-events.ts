import { sql, type Db } from "../db/client";
import type { SqlArg, SqlRunner } from "../db/sql";
import type { EventType, SessionEvent } from "../core/events";

type EventRow = { seq: number; type: string; payload: string; createdAt: Date | string };

export function eventFromRow(row: EventRow): SessionEvent {
  return {
    seq: Number(row.seq),
    type: row.type as EventType,
    payload: JSON.parse(row.payload),
    at: new Date(row.createdAt).toISOString(),
  } as SessionEvent;
}

type ReadOptions = { after?: number; limit?: number; upto?: number };

/** Reads the log in seq order after a seq (exclusive), optionally up to a seq and a page size. */
export async function readEvents(db: Db, sessionId: string, opts: ReadOptions = {}): Promise<SessionEvent[]> {
  return readEventsWith(await sql(db), sessionId, opts);
}

/** readEvents on a given runner (e.g. inside a transaction). */
export async function readEventsWith(
  run: SqlRunner,
  sessionId: string,
  opts: ReadOptions = {},
): Promise<SessionEvent[]> {
  const where = ['"sessionId" = ?', '"seq" > ?'];
  const args: SqlArg[] = [sessionId, opts.after ?? 0];
  if (opts.upto !== undefined) {
    where.push('"seq" <= ?');
    args.push(opts.upto);
  }
  let query = `SELECT "seq", "type", "payload", "createdAt" FROM "SessionEvent" WHERE ${where.join(" AND ")} ORDER BY "seq"`;
  if (opts.limit !== undefined) {
    query += " LIMIT ?";
    args.push(opts.limit);
  }
  const rows = await run.query<EventRow>(query, args);
  return rows.map(eventFromRow);
}
