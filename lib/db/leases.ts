import "server-only";
import { sql } from "kysely";
import { type Conn, kysely } from "./client";

/*
 * The turn lease on a session's row (Session.leaseOwner, leaseUntil): the database, not process memory, decides
 * which process drives a session. Every claim is one conditional UPDATE, so of any number of racing claimants
 * exactly one sees its row changed, on either engine and without a lock held across statements.
 */

/** Takes the lease when nobody holds it or its holder let it expire; true when this token now holds it. */
export async function claimLease(
  conn: Conn,
  sessionId: string,
  token: string,
  until: Date,
  now: Date,
): Promise<boolean> {
  const r = await kysely(conn)
    .updateTable("Session")
    .set({ leaseOwner: token, leaseUntil: until, updatedAt: now })
    .where("id", "=", sessionId)
    .where((eb) => eb.or([eb("leaseOwner", "is", null), eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Extends a lease this token still holds; false when it is gone (expired and taken, or released). */
export async function renewLease(conn: Conn, sessionId: string, token: string, until: Date): Promise<boolean> {
  const r = await kysely(conn)
    .updateTable("Session")
    .set({ leaseUntil: until, updatedAt: new Date() })
    .where("id", "=", sessionId)
    .where("leaseOwner", "=", token)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives the lease up, if this token still holds it. */
export async function releaseLease(conn: Conn, sessionId: string, token: string): Promise<void> {
  await kysely(conn)
    .updateTable("Session")
    .set({ leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
    .where("id", "=", sessionId)
    .where("leaseOwner", "=", token)
    .execute();
}

/** Clears an expired lease of this dead holder: exactly one of the callers that saw it gets true. */
export async function reapLease(conn: Conn, sessionId: string, deadToken: string, now: Date): Promise<boolean> {
  const r = await kysely(conn)
    .updateTable("Session")
    .set({ leaseOwner: null, leaseUntil: null, updatedAt: now })
    .where("id", "=", sessionId)
    .where("leaseOwner", "=", deadToken)
    .where("leaseUntil", "<", now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A runnable session nobody drives: its turn is running and no live lease is on it. */
export type UnclaimedSession = { id: string; leaseOwner: string | null };

/** Running sessions without a live lease, least recently active first. */
export async function listUnclaimedRunning(conn: Conn, now: Date, limit = 100): Promise<UnclaimedSession[]> {
  return kysely(conn)
    .selectFrom("Session")
    .select(["id", "leaseOwner"])
    .where("status", "=", "running")
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .orderBy("lastActivityAt")
    .limit(limit)
    .execute();
}

/** Whether this session is running with no live lease on it. */
export async function isUnclaimedRunning(conn: Conn, sessionId: string, now: Date): Promise<boolean> {
  const row = await kysely(conn)
    .selectFrom("Session")
    .select("id")
    .where("id", "=", sessionId)
    .where("status", "=", "running")
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Running sessions without a live lease that have also been quiet since `quietSince`: their process died. */
export async function listAbandonedRunning(conn: Conn, now: Date, quietSince: Date): Promise<string[]> {
  const rows = await kysely(conn)
    .selectFrom("Session")
    .select("id")
    .where("status", "=", "running")
    .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<", now)]))
    .where("lastActivityAt", "<", quietSince)
    .execute();
  return rows.map((r) => r.id);
}

/** The channel on which instances tell each other that a session became runnable (PostgreSQL). */
export const WAKE_CHANNEL = "plangate_wake";

/** Tells every instance listening on WAKE_CHANNEL that this session is runnable (PostgreSQL only). */
export async function notifyRunnable(conn: Conn, sessionId: string): Promise<void> {
  await sql`SELECT pg_notify(${WAKE_CHANNEL}, ${sessionId})`.execute(kysely(conn));
}
