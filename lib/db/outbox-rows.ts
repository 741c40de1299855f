import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely } from "./client";
import type { EventOutbox } from "./generated-kysely/types";

/** Home of the EventOutbox table: committed events owed to consumers (webhooks), one row per event. */
export type OutboxRow = Selectable<EventOutbox>;

/** Written in the append's own transaction: what the log acknowledged is owed even if the process dies next. */
export async function insertOutboxEntries(conn: Conn, rows: readonly OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await kysely(conn)
    .insertInto("EventOutbox")
    .values([...rows])
    .execute();
}

/** The oldest owed rows first (ids are time-ordered). */
export async function listOutboxRows(conn: Conn, limit: number): Promise<Omit<OutboxRow, "createdAt">[]> {
  return kysely(conn)
    .selectFrom("EventOutbox")
    .select(["id", "sessionId", "seq", "type"])
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** Taking a row is deleting it: false when another sweeper took it first. */
export async function deleteOutboxRow(conn: Conn, id: string): Promise<boolean> {
  const r = await kysely(conn).deleteFrom("EventOutbox").where("id", "=", id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
