import { sql, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { newId } from "../id";

// Which server process runs a session's turn is decided by this row lock-free lease in the database, never by
// process memory, so two processes (or a restarted one) never run the same turn at once.
const INSTANCE = newId("srv");
export const LEASE_TTL_MS = 30_000;

export async function acquireLease(db: Db, sessionId: string, ttlMs = LEASE_TTL_MS): Promise<string | null> {
  return claimLease(await sql(db), sessionId, `${INSTANCE}:${newId("lse")}`, ttlMs);
}

/** The lease claim on a given runner, e.g. inside a transaction so that it commits with other writes. */
export async function claimLease(run: SqlRunner, sessionId: string, token: string, ttlMs = LEASE_TTL_MS): Promise<string | null> {
  const now = new Date();
  const changed = await run.execute(
    'UPDATE "Session" SET "leaseOwner" = ?, "leaseUntil" = ? WHERE "id" = ? AND ("leaseOwner" IS NULL OR "leaseUntil" IS NULL OR "leaseUntil" < ?)',
    [token, new Date(now.getTime() + ttlMs), sessionId, now],
  );
  return changed === 1 ? token : null;
}

export async function renewLease(db: Db, sessionId: string, token: string, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  const changed = await (await sql(db)).execute('UPDATE "Session" SET "leaseUntil" = ? WHERE "id" = ? AND "leaseOwner" = ?', [
    new Date(Date.now() + ttlMs),
    sessionId,
    token,
  ]);
  return changed === 1;
}

export async function releaseLease(db: Db, sessionId: string, token: string): Promise<void> {
  await (await sql(db)).execute('UPDATE "Session" SET "leaseOwner" = NULL, "leaseUntil" = NULL WHERE "id" = ? AND "leaseOwner" = ?', [sessionId, token]);
}
