import { providerOf, type Db } from "../db/client";
import {
  listLastSeqs,
  listSessionsActiveSince,
  notifyChannel,
  readDataVersion,
} from "../db/session-reads/change-markers";
import { publishTouched, subscribeEvents } from "./bus";
import { listSessionsWithDeliveriesSince } from "../db/webhooks";

/** Told a session's committed lastSeq after the database changed; the follower decides whether it is behind. */
export type LogFollower = (lastSeq: number) => void;

// Other processes' commits reach this process only through the database. One cheap tick per Db (not per
// stream) asks SQLite whether anything changed; only then are the followed sessions' lastSeqs read.
const TICK_MS = 500;
const CHUNK = 500;

// SQLite: data_version moves only when another connection commits: this connection's own appends reach streams
// through the bus (afterCommit), so they need no check here. It touches no table, so an idle tick is one tiny
// statement. PostgreSQL: every committed lastSeq change notifies LOG_CHANNEL with "sessionId:lastSeq" (a trigger,
// prisma/postgres/migrations/*_log_notify), so instances hear of each other's commits without polling. A session
// whose webhook deliveries changed is announced on the same channel as "sessionId:touched" (announceTouched).
export const LOG_CHANNEL = "plangate_log";
const TOUCHED_SUFFIX = ":touched";

type Watch = {
  followers: Map<string, Set<LogFollower>>;
  /** Told of any session's commit, by its id. */
  anyone: Set<(sessionId: string) => void>;
  /** PostgreSQL: told of any session whose deliveries an instance changed. */
  touched: Set<(sessionId: string) => void>;
  /** SQLite: the data_version those following anyone compare with (taken when the first of them came). */
  anySeen: number | null;
  timer: NodeJS.Timeout | null;
  seen: number | null;
  unlisten: (() => void) | null;
  /** PostgreSQL: when a notification (or the LISTEN itself) was last heard: a lost connection dropped after it. */
  heardAt: number;
};

// On globalThis, as lib/session/bus.ts's emitter: one watch (one tick, one LISTEN) per database for every copy.
const watches = ((globalThis as unknown as { plangateLogWatches?: Map<Db, Watch> }).plangateLogWatches ??= new Map());

/** Follows a session's log for commits made outside this process's bus; returns the unsubscribe. */
export function watchLog(db: Db, sessionId: string, follower: LogFollower): () => void {
  const watch = watchOf(db);
  const set = watch.followers.get(sessionId) ?? new Set();
  set.add(follower);
  watch.followers.set(sessionId, set);
  return () => {
    set.delete(follower);
    if (set.size === 0 && watch.followers.get(sessionId) === set) watch.followers.delete(sessionId);
    release(db, watch);
  };
}

/** Follows every session's log for commits made outside this process's bus; returns the unsubscribe. */
export function watchAnyLog(db: Db, follower: (sessionId: string) => void): () => void {
  const watch = watchOf(db);
  watch.anyone.add(follower);
  if (providerOf(db) !== "postgres" && watch.anySeen === null)
    void readDataVersion(db)
      .then((v) => {
        watch.anySeen ??= v;
      })
      .catch(() => undefined);
  return () => {
    watch.anyone.delete(follower);
    release(db, watch);
  };
}

function watchOf(db: Db): Watch {
  let watch = watches.get(db);
  if (!watch) {
    // A fresh watch has no baseline, so its first tick checks every follower: a commit that landed between a
    // stream's first read and the baseline would otherwise go unnoticed.
    watch = {
      followers: new Map(),
      anyone: new Set(),
      touched: new Set(),
      anySeen: null,
      timer: null,
      seen: null,
      unlisten: null,
      heardAt: Date.now(),
    };
    watches.set(db, watch);
    if (providerOf(db) === "postgres") follow(db, watch);
    else schedule(db, watch);
  }
  return watch;
}

/** The last follower gone: the watch stops (no tick, no LISTEN connection). */
function release(db: Db, w: Watch): void {
  if (w.followers.size > 0 || w.anyone.size > 0 || w.touched.size > 0 || watches.get(db) !== w) return;
  watches.delete(db);
  if (w.timer) clearTimeout(w.timer);
  w.timer = null;
  w.unlisten?.();
  w.unlisten = null;
}

function schedule(db: Db, watch: Watch): void {
  watch.timer = setTimeout(() => {
    void tick(db, watch)
      .catch(() => undefined)
      .finally(() => {
        if (watches.get(db) === watch) schedule(db, watch);
      });
  }, TICK_MS);
}

function follow(db: Db, watch: Watch): void {
  const onNotice = (payload: string | null) => {
    const lastHeard = watch.heardAt;
    watch.heardAt = Date.now();
    if (payload === null) {
      // LISTEN was re-established: what was committed since the connection last heard anything is read back, for
      // streams, lists and the deliveries page alike.
      const since = new Date(lastHeard - RECENT_MS);
      void tellAnyone(db, watch, since).catch(() => undefined);
      void tellTouched(db, watch, since).catch(() => undefined);
      return void readAll(db, watch).catch(() => undefined);
    }
    if (payload.endsWith(TOUCHED_SUFFIX)) {
      const sessionId = payload.slice(0, -TOUCHED_SUFFIX.length);
      for (const f of watch.touched) f(sessionId);
      return;
    }
    const cut = payload.lastIndexOf(":");
    const seq = Number(payload.slice(cut + 1));
    const sessionId = payload.slice(0, cut);
    for (const f of watch.followers.get(sessionId) ?? []) f(seq);
    for (const f of watch.anyone) f(sessionId);
  };
  // The PostgreSQL driver is loaded on PostgreSQL only.
  void import("../db/pg-listen")
    .then(({ listen }) => listen(db, LOG_CHANNEL, onNotice))
    .then(async (unlisten) => {
      if (watches.get(db) !== watch) return unlisten();
      watch.unlisten = unlisten;
      watch.heardAt = Date.now();
      // Commits between a stream's first read and LISTEN taking effect were not notified to us: check once.
      await readAll(db, watch);
    })
    .catch((error: unknown) => console.error("plangate: cannot listen for log changes", error));
}

async function tick(db: Db, watch: Watch): Promise<void> {
  // Read the change marker before the lastSeqs: a commit in between is then seen again on the next tick.
  const version = await readDataVersion(db);
  if (watch.anySeen !== null && version !== watch.anySeen)
    await tellAnyone(db, watch, new Date(Date.now() - TICK_MS - RECENT_MS));
  watch.anySeen = version;
  if (version === watch.seen) return;
  watch.seen = version;
  await readAll(db, watch);
}

// How far back "what changed" reaches beyond the tick: room for the other process's clock and its commit's duration.
const RECENT_MS = 2_000;

/** SQLite says only that another connection committed: which sessions it wrote to is read back, by their activity. */
async function tellAnyone(db: Db, watch: Watch, since: Date): Promise<void> {
  if (watch.anyone.size === 0) return;
  for (const id of await listSessionsActiveSince(db, since)) for (const f of watch.anyone) f(id);
}

async function tellTouched(db: Db, watch: Watch, since: Date): Promise<void> {
  if (watch.touched.size === 0) return;
  for (const id of await listSessionsWithDeliveriesSince(db, since)) for (const f of watch.touched) f(id);
}

async function readAll(db: Db, watch: Watch): Promise<void> {
  const ids = [...watch.followers.keys()];
  for (let i = 0; i < ids.length; i += CHUNK) {
    for (const r of await listLastSeqs(db, ids.slice(i, i + CHUNK)))
      for (const follow of watch.followers.get(r.id) ?? []) follow(r.lastSeq);
  }
}

/**
 * Every session whose webhook deliveries changed, on any instance (PostgreSQL: through LOG_CHANNEL), or on this one
 * (SQLite, one server: lib/session/bus's subscribeTouched); returns the unsubscribe.
 */
export function watchTouched(db: Db, listener: (sessionId: string) => void): () => void {
  if (providerOf(db) !== "postgres") return () => undefined;
  const watch = watchOf(db);
  watch.touched.add(listener);
  return () => {
    watch.touched.delete(listener);
    release(db, watch);
  };
}

/**
 * A session's webhook deliveries changed (after their commit): the pages showing them re-render, on every instance.
 * PostgreSQL: one NOTIFY, which this instance hears too; SQLite: this process's bus. Never throws: a page missing
 * one re-render must not fail a delivery.
 */
export async function announceTouched(db: Db, sessionId: string): Promise<void> {
  if (providerOf(db) !== "postgres") return publishTouched(sessionId);
  await notifyChannel(db, LOG_CHANNEL, `${sessionId}${TOUCHED_SUFFIX}`).catch((error: unknown) =>
    console.error(`plangate: cannot announce ${sessionId}'s deliveries`, error),
  );
}

/**
 * Resolves when the session's log moves (this process's bus or another instance's commit), or after ms: a long
 * poll's wait between two reads, where a missed wake-up costs at most ms.
 */
export function logMoved(db: Db, sessionId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      unwatch();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = subscribeEvents(sessionId, done);
    const unwatch = watchLog(db, sessionId, done);
  });
}
