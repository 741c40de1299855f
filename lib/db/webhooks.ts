import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely, withTransaction } from "./client";
import type { Review, Session, WebhookAttempt, WebhookDelivery } from "./generated-kysely/types";
import { deleteOutboxRow } from "./outbox-rows";
import { sessionIdsUnder } from "./within-roots";
import { idFloor } from "../id";

/**
 * Home of the WebhookDelivery and WebhookAttempt tables. A delivery is sent by whichever instance wins its claim:
 * each claim is one conditional UPDATE, so of two instances only one ever changes the row.
 */
export type DeliveryRow = Selectable<WebhookDelivery>;
export type AttemptRow = Selectable<WebhookAttempt>;
export type NewDeliveryRow = Omit<DeliveryRow, "claim" | "leaseUntil">;

/** What a hook's body says about the session (read when the delivery is made). */
export async function findWebhookSession(
  conn: Conn,
  sessionId: string,
): Promise<Pick<Selectable<Session>, "id" | "title" | "workspace" | "agent" | "model"> | undefined> {
  return kysely(conn)
    .selectFrom("Session")
    .select(["id", "title", "workspace", "agent", "model"])
    .where("id", "=", sessionId)
    .executeTakeFirst();
}

/** The facts of a review that never change once decided (the body's event payload says the rest). */
export async function findWebhookReview(
  conn: Conn,
  reviewId: string,
): Promise<Pick<Review, "kind" | "planVersion" | "decidedBy"> | undefined> {
  return kysely(conn)
    .selectFrom("Review")
    .select(["kind", "planVersion", "decidedBy"])
    .where("id", "=", reviewId)
    .executeTakeFirst();
}

/**
 * Takes an outbox row and writes the deliveries it owes, with what else its consumers write (`also`: the notices it
 * owes, through their own home module), in one transaction: two instances sweeping together make them once (the
 * second DELETE finds nothing), and a crash before the commit leaves the row for the next sweep.
 */
export async function takeOutboxRow(
  conn: Conn,
  outboxId: string,
  deliveries: readonly NewDeliveryRow[],
  also?: (trx: Conn) => Promise<void>,
) {
  // Nothing to write with it: the one DELETE is the claim.
  if (deliveries.length === 0 && !also) return deleteOutboxRow(conn, outboxId);
  return withTransaction(conn, async (trx) => {
    if (!(await deleteOutboxRow(trx, outboxId))) return false;
    for (const d of deliveries) await trx.insertInto("WebhookDelivery").values(d).execute();
    await also?.(trx);
    return true;
  });
}

/**
 * Claims a due delivery that nobody holds (or whose holder's lease ran out), until leaseUntil. One statement:
 * the condition and the write are atomic, so a claim is won by one caller only.
 */
export async function claimDelivery(
  conn: Conn,
  id: string,
  claim: string,
  now: Date,
  leaseUntil: Date,
): Promise<boolean> {
  const r = await kysely(conn)
    .updateTable("WebhookDelivery")
    .set({ claim, leaseUntil })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function findDelivery(
  conn: Conn,
  id: string,
): Promise<Pick<DeliveryRow, "sessionId" | "url" | "event" | "body" | "attempts"> | undefined> {
  return kysely(conn)
    .selectFrom("WebhookDelivery")
    .select(["sessionId", "url", "event", "body", "attempts"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Ends a claimed delivery without an attempt (it may not be sent at all). */
export async function failClaimedDelivery(conn: Conn, id: string, claim: string, error: string, at: Date) {
  await kysely(conn)
    .updateTable("WebhookDelivery")
    .set({ status: "failed", error, claim: null, leaseUntil: null, nextAttemptAt: null, finishedAt: at })
    .where("id", "=", id)
    .where("claim", "=", claim)
    .execute();
}

export type AttemptResult = Pick<DeliveryRow, "attempts" | "status" | "nextAttemptAt" | "error" | "finishedAt">;

/**
 * The attempt and the delivery's new state, in one transaction, guarded by the claim. False when the claim had
 * lapsed and another sender took over: its attempt is the one on record.
 */
export async function recordAttempt(
  conn: Conn,
  id: string,
  claim: string,
  result: AttemptResult,
  attempt: AttemptRow,
): Promise<boolean> {
  return withTransaction(conn, async (trx) => {
    const r = await trx
      .updateTable("WebhookDelivery")
      .set({ ...result, claim: null, leaseUntil: null })
      .where("id", "=", id)
      .where("claim", "=", claim)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx.insertInto("WebhookAttempt").values(attempt).execute();
    return true;
  });
}

/** Deliveries whose next attempt is due and that nobody is sending, the longest waiting first. */
export async function listDueDeliveries(conn: Conn, now: Date, limit: number): Promise<string[]> {
  const rows = await kysely(conn)
    .selectFrom("WebhookDelivery")
    .select("id")
    .where("status", "=", "pending")
    .where("nextAttemptAt", "<=", now)
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .orderBy("nextAttemptAt")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export type DeliveryListRow = Omit<DeliveryRow, "attempts" | "claim" | "leaseUntil">;

/** Deliveries newest first (ids are time-ordered); null when sessionId names no session. */
export async function listDeliveryRows(
  conn: Conn,
  /** `roots`: only deliveries of sessions whose workspace is one of these roots or under one. */
  where: { sessionId?: string; status?: string; limit: number; roots?: readonly string[] },
): Promise<DeliveryListRow[] | null> {
  const k = kysely(conn);
  if (where.sessionId !== undefined) {
    const found = await k.selectFrom("Session").select("id").where("id", "=", where.sessionId).executeTakeFirst();
    if (!found) return null;
  }
  let q = k
    .selectFrom("WebhookDelivery")
    .select([
      "id",
      "sessionId",
      "seq",
      "event",
      "url",
      "source",
      "status",
      "body",
      "nextAttemptAt",
      "error",
      "createdAt",
      "finishedAt",
    ]);
  if (where.sessionId !== undefined) q = q.where("sessionId", "=", where.sessionId);
  if (where.status !== undefined) q = q.where("status", "=", where.status);
  const roots = where.roots;
  if (roots) q = q.where("sessionId", "in", sessionIdsUnder(kysely(conn), roots));
  return q.orderBy("id", "desc").limit(where.limit).execute();
}

/** The attempts of these deliveries, each delivery's in order. */
export async function listAttempts(conn: Conn, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return kysely(conn)
    .selectFrom("WebhookAttempt")
    .selectAll()
    .where("deliveryId", "in", deliveryIds)
    .orderBy("deliveryId")
    .orderBy("number")
    .execute();
}

/**
 * The sessions whose deliveries were made, attempted or ended since `since`, newest first (a listener that missed
 * notifications catches up). Delivery and attempt ids are time-ordered (an attempt's by when it was written), so
 * those are ranges of a primary key; a delivery ended without an attempt (its secret removed) has finishedAt.
 */
export async function listSessionsWithDeliveriesSince(conn: Conn, since: Date, limit = 1000): Promise<string[]> {
  const made = await kysely(conn)
    .selectFrom("WebhookDelivery")
    .select((eb) => ["sessionId", eb.fn.max("id").as("latest")])
    .where((eb) => eb.or([eb("id", ">=", idFloor("whd", since.getTime())), eb("finishedAt", ">=", since)]))
    .groupBy("sessionId")
    .orderBy("latest", "desc")
    .limit(limit)
    .execute();
  const tried = await kysely(conn)
    .selectFrom("WebhookAttempt as a")
    .innerJoin("WebhookDelivery as d", "d.id", "a.deliveryId")
    .select((eb) => ["d.sessionId", eb.fn.max("a.id").as("latest")])
    .where("a.id", ">=", idFloor("wha", since.getTime()))
    .groupBy("d.sessionId")
    .orderBy("latest", "desc")
    .limit(limit)
    .execute();
  return [...new Set([...made, ...tried].map((r) => r.sessionId))];
}
