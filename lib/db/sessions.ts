import "server-only";
import type { Insertable } from "kysely";
import { type Conn, kysely } from "./client";
import type { Session } from "./generated-kysely/types";

/** Home of the Session table's rows (the projection columns are written with each append, in session-log). */
export type NewSessionRow = Omit<Insertable<Session>, "updatedAt">;

export async function insertSession(conn: Conn, row: NewSessionRow): Promise<void> {
  await kysely(conn)
    .insertInto("Session")
    .values({ ...row, updatedAt: row.createdAt ?? new Date() })
    .execute();
}

/** Removes the session; its events, plans, reviews, asks and grants go with it (the rows cascade). */
export async function deleteSessionRow(conn: Conn, sessionId: string): Promise<number> {
  const r = await kysely(conn).deleteFrom("Session").where("id", "=", sessionId).executeTakeFirst();
  return Number(r.numDeletedRows);
}
