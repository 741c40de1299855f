import type { Db } from "../db/client";
import { listAbandonedRunning } from "../db/leases";
import { appendEvents } from "../session/append-events";
import { leaseTtlMs } from "../session/lease";

/**
 * A turn whose process died leaves a running session with an expired lease. Such turns are marked interrupted
 * (resumable), never silently continued: nothing the user has not seen runs after a crash.
 */
export async function recoverInterrupted(db: Db, now = new Date()): Promise<string[]> {
  const stale = new Date(now.getTime() - leaseTtlMs());
  const ids = await listAbandonedRunning(db, now, stale);
  const marked: string[] = [];
  for (const id of ids) {
    await appendEvents(db, id, (s) =>
      s.status === "running" && s.openTurnId && !s.waitingOn
        ? [{ type: "turn.interrupted", payload: { turnId: s.openTurnId } }]
        : [],
    );
    marked.push(id);
  }
  return marked;
}
