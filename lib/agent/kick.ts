import { providerOf, type Db } from "../db/client";
import { notifyRunnable } from "../db/leases";
import { driveSession } from "./drive-session";

/**
 * Starts driving a session in the background; the HTTP request that caused it does not wait. The drive takes a
 * plan approval's workspace baseline that is still owed before anything else, so no tool runs without it.
 * That the session is runnable is already a committed fact (its row says running, with no live lease); on
 * PostgreSQL the other instances are told too, and whichever takes the lease drives it. Should this process
 * die first, any instance's scheduler finds the fact on its next sweep.
 */
export function kick(db: Db, sessionId: string): void {
  void driveSession(db, sessionId).catch((error: unknown) =>
    console.error(`plangate: drive ${sessionId} failed`, error),
  );
  if (providerOf(db) === "postgres") void notifyRunnable(db, sessionId).catch(() => undefined);
}
