import { providerOf, type Db } from "../db/client";
import { isUnclaimedRunning, listUnclaimedRunning, WAKE_CHANNEL } from "../db/leases";
import { getEnv } from "../env";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";
import { leaseTtlMs, reapLease } from "../session/lease";
import { recoverInterrupted } from "./recover-interrupted";

/**
 * One sweep: every runnable session without a live lease is driven here if this instance takes its lease.
 * One whose holder died is reported once (the instance that reaps the dead lease says so), and the drive
 * goes on from the log: a tool call that had started is reported to the model as interrupted, never re-run.
 */
export async function takeOverSessions(db: Db, now = new Date()): Promise<{ tookOver: string[]; woke: string[] }> {
  const out = { tookOver: [] as string[], woke: [] as string[] };
  // Runnable sessions nobody drives: a running turn (the projection's status) with no lease, or a lease its
  // holder let expire. A session waiting on a subagent is left alone: the subagent's end wakes it.
  for (const c of await listUnclaimedRunning(db, now)) {
    if ((await getSession(db, c.id)).state.waitingOn) continue;
    if (c.leaseOwner !== null) {
      // Of every instance that saw the dead lease, only the one that reaps it reports the take-over.
      if (!(await reapLease(db, c.id, c.leaseOwner))) continue;
      await appendEvents(db, c.id, (s) =>
        s.openTurnId
          ? [
              {
                type: "notice",
                payload: {
                  level: "info",
                  text: "The server running this turn stopped; another instance took the turn over.",
                },
              },
            ]
          : [],
      );
      out.tookOver.push(c.id);
    } else {
      // Runnable and held by nobody (also just after another instance reaped it): whoever takes the lease drives.
      out.woke.push(c.id);
    }
    void drive(db, c.id).catch((error: unknown) => console.error(`plangate: drive ${c.id} failed`, error));
  }
  return out;
}

/** A woken session is driven here unless it is not runnable or another instance already holds it (usually the waker). */
async function driveIfUnclaimed(db: Db, id: string): Promise<void> {
  if (await isUnclaimedRunning(db, id, new Date())) await drive(db, id);
}

// The agent's code (model clients, tools) and the PostgreSQL driver are loaded when first needed: a server that
// only reviews, or runs on SQLite, never holds them.
async function drive(db: Db, id: string): Promise<void> {
  const { driveSession } = await import("./drive-session");
  await driveSession(db, id);
}

let started = false;

/**
 * Starts this instance's scheduler. PostgreSQL (a pool of instances): wakes from other instances drive here
 * when this one takes the lease, and a sweep every third of the lease lifetime takes over turns whose instance
 * died. SQLite (one machine): a sweep marks such turns interrupted, for a person to resume. PLANGATE_FAILOVER
 * picks either policy explicitly.
 */
export function startScheduler(db: Db): void {
  if (started) return;
  started = true;
  const takeover =
    (getEnv().PLANGATE_FAILOVER ?? (providerOf(db) === "postgres" ? "takeover" : "interrupt")) === "takeover";
  const sweep = takeover ? () => takeOverSessions(db) : () => recoverInterrupted(db);
  const tick = () => void sweep().catch((error: unknown) => console.error("plangate: scheduler sweep failed", error));
  tick();
  const timer = setInterval(tick, takeover ? Math.max(500, Math.floor(leaseTtlMs() / 3)) : 10_000);
  timer.unref();
  if (providerOf(db) === "postgres") {
    void import("../db/pg-listen")
      .then(({ listen }) =>
        listen(db, WAKE_CHANNEL, (id) => {
          if (id === null) return tick();
          void driveIfUnclaimed(db, id).catch((error: unknown) => console.error(`plangate: drive ${id} failed`, error));
        }),
      )
      .catch((error: unknown) => console.error("plangate: cannot listen for wakes", error));
  }
}
