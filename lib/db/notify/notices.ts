import "server-only";
import type { Insertable, Selectable } from "kysely";
import { type Conn, kysely } from "../client";
import type { Notice } from "../generated-kysely/types";

/**
 * Home of the Notice table (issue 46): one message owed to one person (or a Slack channel) on one channel. Made once
 * per event (its unique key: item, recipient, channel and kind), sent by whichever instance wins its claim.
 */
export type NoticeRow = Selectable<Notice>;
export type NewNotice = Omit<Insertable<Notice>, "claim" | "leaseUntil">;

/** Writes these notices; one already made for the same event (another instance's, an earlier sweep's) stays as it is. */
export async function insertNotices(conn: Conn, rows: readonly NewNotice[]): Promise<void> {
  for (const row of rows)
    await kysely(conn)
      .insertInto("Notice")
      .values(row)
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
}

/** An event's notice work, written in the transaction that takes its outbox row. */
export async function applyNoticeWork(
  conn: Conn,
  work: { notices: readonly NewNotice[]; withdraw: readonly string[] },
  at: Date,
): Promise<void> {
  for (const itemId of work.withdraw) await withdrawNotices(conn, itemId, at);
  await insertNotices(conn, work.notices);
}

/**
 * Notices of these items that have not gone out and nobody is sending: they are not sent now (the item was decided
 * or replaced), so nobody acts on something stale. One sent already stays on record as sent.
 */
export async function withdrawNotices(conn: Conn, itemId: string, at: Date): Promise<number> {
  const r = await kysely(conn)
    .updateTable("Notice")
    .set({ status: "withdrawn", nextAttemptAt: null, finishedAt: at, error: "the item was decided first" })
    .where("itemId", "=", itemId)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", at)]))
    .where("kind", "in", ["waiting", "reminder", "escalation"])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * The people told that an item waits, on any channel: their notice went out, or is going out now (claimed). They hear it
 * was decided; one whose notice is still waiting to be sent has it withdrawn instead.
 */
export async function listNoticedPeople(conn: Conn, itemId: string, now: Date): Promise<string[]> {
  const rows = await kysely(conn)
    .selectFrom("Notice")
    .select("userId")
    .distinct()
    .where("itemId", "=", itemId)
    .where("userId", "is not", null)
    .where("kind", "in", ["waiting", "reminder", "escalation"])
    .where((eb) =>
      eb.or([eb("status", "=", "sent"), eb.and([eb("status", "=", "pending"), eb("leaseUntil", ">=", now)])]),
    )
    .execute();
  return rows.flatMap((r) => (r.userId ? [r.userId] : []));
}

/** Claims a due notice nobody holds (or whose holder's lease ran out); won by one caller only. */
export async function claimNotice(conn: Conn, id: string, claim: string, now: Date, leaseUntil: Date) {
  const r = await kysely(conn)
    .updateTable("Notice")
    .set({ claim, leaseUntil })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function findNotice(conn: Conn, id: string): Promise<NoticeRow | undefined> {
  return kysely(conn).selectFrom("Notice").selectAll().where("id", "=", id).executeTakeFirst();
}

/** An attempt's outcome, guarded by the claim: false when the claim lapsed and another sender took over. */
export async function recordNoticeAttempt(
  conn: Conn,
  id: string,
  claim: string,
  result: Pick<NoticeRow, "attempts" | "status" | "nextAttemptAt" | "error" | "finishedAt"> & { ref?: string | null },
): Promise<boolean> {
  const r = await kysely(conn)
    .updateTable("Notice")
    .set({ ...result, claim: null, leaseUntil: null })
    .where("id", "=", id)
    .where("claim", "=", claim)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The messages a channel posted about an item (Slack: "channel ts"), to update when it is decided. */
export async function listSentRefs(conn: Conn, itemId: string, channel: string): Promise<string[]> {
  const rows = await kysely(conn)
    .selectFrom("Notice")
    .select("ref")
    .where("itemId", "=", itemId)
    .where("channel", "=", channel)
    .where("status", "=", "sent")
    .where("ref", "is not", null)
    .where("kind", "in", ["waiting", "reminder", "escalation"])
    .orderBy("id")
    .execute();
  return rows.flatMap((r) => (r.ref ? [r.ref] : []));
}

/** How many of an item's notices on a channel are being sent right now (claimed, their lease running). */
export async function countInFlight(conn: Conn, itemId: string, channel: string, now: Date): Promise<number> {
  const row = await kysely(conn)
    .selectFrom("Notice")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("itemId", "=", itemId)
    .where("channel", "=", channel)
    .where("status", "=", "pending")
    .where("leaseUntil", ">=", now)
    .where("kind", "in", ["waiting", "reminder", "escalation"])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Notices due and not being sent, the longest waiting first. */
export async function listDueNotices(conn: Conn, now: Date, limit: number): Promise<string[]> {
  const rows = await kysely(conn)
    .selectFrom("Notice")
    .select("id")
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .orderBy("nextAttemptAt")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export type WaitingNoticed = {
  itemId: string;
  sessionId: string;
  askedAt: Date;
  sent: ("reminder" | "escalation")[];
  /** The body of one of its waiting notices (what the follow-up says again). */
  body: string;
};

/**
 * Items told about that still wait (a pending review or permission ask) and have not been escalated: what the follow-up sweep
 * weighs. Each with when it was first told and which follow-ups it had. One page, oldest first.
 */
export async function listWaitingNoticed(conn: Conn, limit: number): Promise<WaitingNoticed[]> {
  const k = kysely(conn);
  const rows = await k
    .selectFrom("Notice as n")
    .select((eb) => ["n.itemId", "n.sessionId", eb.fn.min("n.createdAt").as("askedAt")])
    .where("n.kind", "=", "waiting")
    // Still waiting: a plan review or question that is pending, or a permission ask nobody answered.
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom("Review as r")
            .select("r.id")
            .whereRef("r.id", "=", "n.itemId")
            .where("r.status", "=", "pending"),
        ),
        eb.exists(
          eb
            .selectFrom("PermissionRequest as p")
            .select("p.id")
            .whereRef("p.id", "=", "n.itemId")
            .where("p.status", "=", "pending"),
        ),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("Notice as e")
            .select("e.id")
            .whereRef("e.itemId", "=", "n.itemId")
            .where("e.kind", "=", "escalation"),
        ),
      ),
    )
    .groupBy(["n.itemId", "n.sessionId"])
    .orderBy("askedAt")
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.itemId);
  const [reminded, bodies] = await Promise.all([
    k
      .selectFrom("Notice")
      .select("itemId")
      .distinct()
      .where("itemId", "in", ids)
      .where("kind", "=", "reminder")
      .execute(),
    k
      .selectFrom("Notice")
      .select(["itemId", "body"])
      .where("itemId", "in", ids)
      .where("kind", "=", "waiting")
      .execute(),
  ]);
  const wasReminded = new Set(reminded.map((f) => f.itemId));
  const bodyOf = new Map(bodies.map((b) => [b.itemId, b.body]));
  return rows.map((r) => ({
    itemId: r.itemId,
    sessionId: r.sessionId,
    askedAt: new Date(r.askedAt as unknown as string | Date),
    sent: wasReminded.has(r.itemId) ? ["reminder"] : [],
    body: bodyOf.get(r.itemId) ?? "{}",
  }));
}

/** A person's notices, newest first (ids are time-ordered): their delivery log on /account. */
export async function listNoticesOf(conn: Conn, userId: string, limit: number): Promise<NoticeRow[]> {
  return kysely(conn)
    .selectFrom("Notice")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
