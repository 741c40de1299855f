import type { Conn, Db } from "../db/client";
import * as leases from "../db/leases";
import { getEnv } from "../env";
import { newId } from "../id";

// Which server process runs a session's turn is decided by this row lock-free lease in the database, never by
// process memory, so two processes (or a restarted one) never run the same turn at once.
export const INSTANCE = newId("srv");

/** The lease's lifetime (PLANGATE_LEASE_TTL_MS); holders renew every third of it, so two missed renewals are tolerated. */
export function leaseTtlMs(): number {
  return getEnv().PLANGATE_LEASE_TTL_MS;
}

export async function acquireLease(db: Db, sessionId: string, ttlMs = leaseTtlMs()): Promise<string | null> {
  return claimLease(db, sessionId, `${INSTANCE}:${newId("lse")}`, ttlMs);
}

/** The lease claim on a given connection, e.g. a transaction's, so that it commits with other writes. */
export async function claimLease(
  conn: Conn,
  sessionId: string,
  token: string,
  ttlMs = leaseTtlMs(),
): Promise<string | null> {
  const now = new Date();
  return (await leases.claimLease(conn, sessionId, token, new Date(now.getTime() + ttlMs), now)) ? token : null;
}

export async function renewLease(db: Db, sessionId: string, token: string, ttlMs = leaseTtlMs()): Promise<boolean> {
  return leases.renewLease(db, sessionId, token, new Date(Date.now() + ttlMs));
}

/**
 * Renews the lease every third of its lifetime until the returned stop is called. A renewal that finds the
 * lease gone (this process stalled past its expiry and another instance took the session over) calls onLost.
 */
export function keepLease(db: Db, sessionId: string, token: string, onLost: () => void = () => undefined): () => void {
  const renew = async () => {
    if (!(await renewLease(db, sessionId, token))) onLost();
  };
  const timer = setInterval(() => void renew().catch(() => undefined), Math.max(250, Math.floor(leaseTtlMs() / 3)));
  timer.unref();
  return () => clearInterval(timer);
}

export async function releaseLease(db: Db, sessionId: string, token: string): Promise<void> {
  await leases.releaseLease(db, sessionId, token);
}

/**
 * Clears a lease its holder let expire (it died): exactly one caller gets true, however many instances saw
 * the same expired lease, so one of them reports the take-over and drives.
 */
export async function reapLease(db: Db, sessionId: string, deadToken: string): Promise<boolean> {
  return leases.reapLease(db, sessionId, deadToken, new Date());
}
