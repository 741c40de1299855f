import type { Db } from "../db/client";
import { takeOwedBaseline, type HeldBaseline } from "../verify/take-baseline";
import { driveSession } from "./drive-session";

/**
 * Starts driving a session in the background; the HTTP request that caused it does not wait. A plan approval's
 * workspace baseline that is still owed is taken first (`held`: the lease the decision took for it), so no tool
 * runs before verification has the tree to diff against.
 */
export function kick(db: Db, sessionId: string, held?: HeldBaseline): void {
  void takeOwedBaseline(db, sessionId, held)
    .catch((error: unknown) => console.error(`plangate: the approval baseline of ${sessionId} failed`, error))
    .then(() => driveSession(db, sessionId))
    .catch((error: unknown) => console.error(`plangate: drive ${sessionId} failed`, error));
}
