import { sql, type Db } from "../db/client";
import { appendEvents } from "../session/append-events";
import { leaseTtlMs } from "../session/lease";

/**
 * A turn whose process died leaves a running session with an expired lease. Such turns are marked interrupted
 * (resumable), never silently continued: nothing the user has not seen runs after a crash.
 */
export async function recoverInterrupted(db: Db, now = new Date()): Promise<string[]> {
  const stale = new Date(now.getTime() - leaseTtlMs());
  const rows = await (await sql(db)).query<{ id: string }>(
    'SELECT "id" FROM "Session" WHERE "status" = ? AND ("leaseUntil" IS NULL OR "leaseUntil" < ?) AND "lastActivityAt" < ?',
    ["running", now, stale],
  );
  const marked: string[] = [];
  for (const { id } of rows) {
    await appendEvents(db, id, (s) =>
      s.status === "running" && s.openTurnId && !s.waitingOn
        ? [{ type: "turn.interrupted", payload: { turnId: s.openTurnId } }]
        : [],
    );
    marked.push(id);
  }
  return marked;
}
