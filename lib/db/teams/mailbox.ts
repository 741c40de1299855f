import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely, withTransaction } from "../client";
import type { MailboxMessage } from "../generated-kysely/types";

/** Home of the MailboxMessage table: a team's messages, in one order per team (seq). */
export type MailRow = Selectable<MailboxMessage>;
export type MailFilter = Partial<Pick<MailRow, "id" | "teamId" | "toSession" | "status" | "requestId" | "type">>;
export type NewMailRow = Pick<MailRow, "teamId" | "fromSession" | "toSession" | "type" | "payload" | "status"> & {
  id: string;
  requestId: string | null;
  createdAt: Date;
  readAt: Date | null;
};

export async function listMailboxMessages(conn: Conn, where: MailFilter): Promise<MailRow[]> {
  let q = kysely(conn).selectFrom("MailboxMessage").selectAll();
  for (const key of ["id", "teamId", "toSession", "status", "requestId", "type"] as const) {
    const value = where[key];
    if (value !== undefined) q = q.where(key, "=", value);
  }
  return q.orderBy("seq").execute();
}

/**
 * Stores a message (inside the caller's transaction when there is one). The team's next seq is read in the same
 * transaction; (teamId, seq) is unique, so two writers can never share a place in the order.
 */
export async function insertMailboxMessage(conn: Conn, mail: NewMailRow): Promise<void> {
  await withTransaction(conn, async (trx) => {
    const row = await trx
      .selectFrom("MailboxMessage")
      .select((eb) => eb.fn.max("seq").as("last"))
      .where("teamId", "=", mail.teamId)
      .executeTakeFirst();
    await trx
      .insertInto("MailboxMessage")
      .values({ ...mail, seq: Number(row?.last ?? 0) + 1 })
      .execute();
  });
}

/** Marks delivered messages read; one already read (delivered meanwhile) is left as it is. */
export async function markMailRead(conn: Conn, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await kysely(conn)
    .updateTable("MailboxMessage")
    .set({ status: "read", readAt: at })
    .where("id", "in", ids)
    .where("status", "=", "unread")
    .execute();
}

/** False when the message was answered already: of two racing answers only one changes the row. */
export async function markMailAnswered(conn: Conn, id: string, at: Date): Promise<boolean> {
  const r = await kysely(conn)
    .updateTable("MailboxMessage")
    .set((eb) => ({ status: "answered", readAt: eb.fn.coalesce("readAt", eb.val(at)) }))
    .where("id", "=", id)
    .where("status", "<>", "answered")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
