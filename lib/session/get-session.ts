import type { Db } from "../db/client";
import { readSession, type SessionView } from "../db/session-log/read-state";
import { AppError } from "../errors";
import type { SessionState } from "./log/fold";

export { type SessionView, sessionView } from "../db/session-log/read-state";

/** Reads a session and its state from the projection columns: one indexed row, no log replay. */
export async function getSession(db: Db, id: string): Promise<{ session: SessionView; state: SessionState }> {
  const found = await readSession(db, id);
  if (!found) throw new AppError("session_not_found");
  return found;
}
