import type { Db } from "../db/client";
import { driveSession } from "./drive-session";

/**
 * Starts driving a session in the background; the HTTP request that caused it does not wait. The drive takes a
 * plan approval's workspace baseline that is still owed before anything else, so no tool runs without it.
 */
export function kick(db: Db, sessionId: string): void {
  void driveSession(db, sessionId).catch((error: unknown) => console.error(`plangate: drive ${sessionId} failed`, error));
}
