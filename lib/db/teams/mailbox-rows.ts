import "server-only";
import type { ExpressionBuilder, Selectable } from "kysely";
import { type Conn, kysely, withTransaction } from "../client";
import type { DB, MailboxMessage } from "../generated-kysely/types";

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
 * A team's messages before seq `before` (from the newest when absent), newest first: `limit + 1` at most, the extra
 * one telling that earlier ones exist. One range of the (teamId, seq) index, however long the team has talked.
 */
export async function listTeamMailBefore(
  conn: Conn,
  teamId: string,
  before: number | undefined,
  limit: number,
): Promise<MailRow[]> {
  let q = kysely(conn).selectFrom("MailboxMessage").selectAll().where("teamId", "=", teamId);
  if (before !== undefined) q = q.where("seq", "<", before);
  return q
    .orderBy("seq", "desc")
    .limit(limit + 1)
    .execute();
}

/** An inbox: one member's messages in a team; `status` "pending" is a plan request not answered yet. */
export type InboxFilter = { teamId: string; toSession: string; type?: string; status?: string };
/** Keyset position in an inbox: the last listed message's rank (0: a pending request, 1: the rest) and its seq. */
export type InboxCursor = { rank: 0 | 1; seq: number };

/**
 * One page of an inbox (`limit + 1` rows at most, the extra one telling that a next page exists): the pending plan
 * requests first, then the rest, each in team order. seq is unique in a team, so (rank, seq) orders without ties.
 * A request answered between two pages moves from the first part to the second: it may be listed once in each.
 */
export async function listInboxPage(
  conn: Conn,
  where: InboxFilter,
  after: InboxCursor | undefined,
  limit: number,
): Promise<(MailRow & { rank: 0 | 1 })[]> {
  const k = kysely(conn);
  let q = k
    .selectFrom("MailboxMessage")
    .selectAll()
    .select((eb) => pendingRank(eb).as("rank"))
    .where("teamId", "=", where.teamId)
    .where("toSession", "=", where.toSession);
  if (where.type !== undefined) q = q.where("type", "=", where.type);
  if (where.status === "pending") q = q.where("type", "=", PLAN_REQUEST).where("status", "<>", "answered");
  else if (where.status !== undefined) q = q.where("status", "=", where.status);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb(pendingRank(eb), ">", after.rank),
        eb.and([eb(pendingRank(eb), "=", after.rank), eb("seq", ">", after.seq)]),
      ]),
    );
  const rows = await q
    .orderBy((eb) => pendingRank(eb))
    .orderBy("seq")
    .limit(limit + 1)
    .execute();
  return rows.map((r) => ({ ...r, rank: Number(r.rank) === 0 ? 0 : 1 }));
}

const PLAN_REQUEST = "plan_approval_request";
function pendingRank(eb: ExpressionBuilder<DB, "MailboxMessage">) {
  return (
    eb
      .case()
      .when(eb.and([eb("type", "=", PLAN_REQUEST), eb("status", "<>", "answered")]))
      // Literals, not parameters: PostgreSQL would type two untyped parameters as text.
      .then(eb.lit(0))
      .else(eb.lit(1))
      .end()
  );
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
