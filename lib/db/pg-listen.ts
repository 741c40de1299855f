import "server-only";
import pg from "pg";
import { retry } from "../retry";
import { urlOf, type Db } from "./client";

/** Told each notification's payload; `null` after a reconnect, when notifications may have been missed. */
export type Listener = (payload: string | null) => void;

type Channel = { listeners: Set<Listener> };
type Connection = {
  client: pg.Client | null;
  channels: Map<string, Channel>;
  closed: boolean;
  ready: Promise<void> | null;
  connectedBefore: boolean;
};

// One LISTEN connection per database per process, whatever the number of streams and channels: NOTIFY is how
// instances on one PostgreSQL hear each other's commits (delivered at commit, in commit order, only if committed).
const connections = new Map<string, Connection>();

async function connect(url: string, conn: Connection): Promise<void> {
  const connected = await retry(
    async () => {
      if (conn.closed) return false;
      const client = new pg.Client({ connectionString: url });
      // Before anything else: an error with no listener (the server ends the connection while LISTEN is being set
      // up) would be thrown out of the process. Until it is in use (conn.client), reconnect leaves it be.
      client.on("error", () => reconnect(url, conn, client));
      client.on("end", () => reconnect(url, conn, client));
      try {
        await client.connect();
        for (const name of conn.channels.keys()) await client.query(`LISTEN "${name}"`);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      client.on("notification", (n) => {
        for (const l of conn.channels.get(n.channel)?.listeners ?? []) l(n.payload ?? "");
      });
      conn.client = client;
      return true;
    },
    // Until it connects or nobody listens any more; jittered, so the instances a restart cut off come back apart.
    { attempts: Number.POSITIVE_INFINITY, backoff: { baseMs: 200, maxMs: 5_000 }, retryable: () => !conn.closed },
  ).catch(() => false); // it fails only once the connection was closed: nothing is owed to anyone then
  if (!connected) return;
  // Anything committed while no connection listened is unknown: every listener re-checks (outside the retried
  // part: a listener that throws must not open a second connection).
  if (conn.connectedBefore)
    for (const ch of conn.channels.values())
      for (const l of ch.listeners)
        try {
          l(null);
        } catch {
          // the listener's own failure; the others still re-check
        }
  conn.connectedBefore = true;
}

function reconnect(url: string, conn: Connection, client: pg.Client): void {
  if (conn.client !== client || conn.closed) return;
  conn.client = null;
  conn.ready = connect(url, conn);
}

/** Listens on a channel of db's PostgreSQL; resolves once LISTEN is in force, and gives the unlisten. */
export async function listen(db: Db, channel: string, listener: Listener): Promise<() => void> {
  const url = urlOf(db);
  let conn = connections.get(url);
  if (!conn) {
    conn = { client: null, channels: new Map(), closed: false, ready: null, connectedBefore: false };
    connections.set(url, conn);
    conn.channels.set(channel, { listeners: new Set() });
    conn.ready = connect(url, conn);
  }
  const c = conn;
  let ch = c.channels.get(channel);
  if (!ch) {
    ch = { listeners: new Set() };
    c.channels.set(channel, ch);
    await c.ready;
    await c.client?.query(`LISTEN "${channel}"`);
  }
  ch.listeners.add(listener);
  await c.ready;
  const mine = ch;
  return () => {
    mine.listeners.delete(listener);
  };
}

/** Stops every listener connection (tests, shutdown). */
export async function closeListeners(): Promise<void> {
  const all = [...connections.values()];
  connections.clear();
  for (const c of all) {
    c.closed = true;
    await c.client?.end().catch(() => undefined);
  }
}
