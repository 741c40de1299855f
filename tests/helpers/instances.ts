import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { buildWhenStale } from "../../scripts/needs-build";
import { freePort, http, operatorHeaders, startServer, type Server } from "./server";
import { until, waitFor } from "./poll";

const repo = path.resolve(import.meta.dirname, "../..");
/** Every SSE subscription still open (closed when the cluster stops: open streams hold up a graceful exit). */
const openStreams = new Set<() => void>();

export type LoggedEvent = { seq: number; type: string; payload: Record<string, any> };
export type Step = { text?: string; toolCalls?: { name: string; input: Record<string, unknown> }[] };
export const bash = (command: string): Step => ({ toolCalls: [{ name: "bash", input: { command } }] });
export const exitPlan = (plan: string): Step => ({ toolCalls: [{ name: "exit_plan_mode", input: { plan } }] });

/**
 * Several `npm start` processes on one PostgreSQL database that starts out EMPTY (no tables at all), sharing one
 * data folder and workspace root, as instances behind a load balancer would share a volume.
 */
export type Cluster = {
  root: string;
  dbUrl: string;
  servers: Server[];
  query: <T extends pg.QueryResultRow>(text: string, params?: unknown[]) => Promise<T[]>;
  /** A workspace folder under the shared root, with an optional .plangate/config.json that a person trusted. */
  workspace: (name: string, config?: unknown) => Promise<string>;
  stop: () => Promise<void>;
};

/** One build before the instances start (npm start would build under the same lock, one instance at a time). */
function buildOnce(): void {
  const failed = buildWhenStale(repo, false);
  if (failed) throw new Error(failed);
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: inject("pgUrl") });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Starts `count` instances at the same moment (so their migrations race) on a new, empty database. */
export async function startCluster(name: string, count = 3, extraEnv: Record<string, string> = {}): Promise<Cluster> {
  // Built once before, so the instances do not race three `next build`s into one .next folder.
  buildOnce();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `plangate-mi-${name}-`)));
  const dbName = `mi_${name}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
  const url = new URL(inject("pgUrl"));
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const pool = new pg.Pool({ connectionString: dbUrl, max: 3 });
  // The database is dropped WITH (FORCE) at the end: a connection it ends then is not the test's failure (an idle
  // client's error reaches the pool, and a pool without a listener throws it out of the test run).
  pool.on("error", () => undefined);
  const env = {
    DATABASE_URL: dbUrl,
    PLANGATE_DATA_DIR: root,
    PLANGATE_WORKSPACE_ROOTS: root,
    PLANGATE_ALLOW_SCRIPTED: "1",
    PLANGATE_LEASE_TTL_MS: "3000",
    ...extraEnv,
  };
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const started = await Promise.allSettled(ports.map((port) => startServer(env, port)));
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stop = async () => {
    for (const close of [...openStreams]) close();
    // SIGTERM first; an instance still draining connections after 10 s is killed.
    await Promise.all(
      servers.map((s) => Promise.race([s.stop(), new Promise((r) => setTimeout(r, 10_000))]).then(() => s.kill9())),
    );
    await pool.end().catch(() => undefined);
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`)).catch(() => undefined);
    fs.rmSync(root, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return {
    root,
    dbUrl,
    servers,
    query: async (text, params) => (await pool.query(text, params as unknown[])).rows,
    workspace: async (ws, config) => {
      const dir = path.join(root, ws);
      fs.mkdirSync(path.join(dir, ".plangate"), { recursive: true });
      if (config !== undefined) {
        fs.writeFileSync(path.join(dir, ".plangate", "config.json"), JSON.stringify(config));
        // The test's own config, trusted as a person would on the workspace page (on one instance: all see it).
        const base = servers[0]?.url ?? "";
        const real = fs.realpathSync(dir);
        const shown = await http(`${base}/api/workspaces/trust?workspace=${encodeURIComponent(real)}`, "GET");
        const trusted = await http(`${base}/api/workspaces/trust`, "POST", { workspace: real, hash: shown.body.hash });
        if (trusted.status !== 200) throw new Error(`trusting ${real} failed: ${JSON.stringify(trusted.body)}`);
      }
      return dir;
    },
    stop,
  };
}

/** A scripted session created through instance `base`; returns its id. */
export async function scripted(
  base: string,
  workspace: string,
  script: Step[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await http(`${base}/api/sessions`, "POST", {
    title: "multi-instance",
    workspace,
    model: "scripted",
    script,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`session not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.session.id as string;
}

export async function say(base: string, id: string, text: string): Promise<void> {
  const res = await http(`${base}/api/sessions/${id}/messages`, "POST", { text });
  if (res.status !== 202) throw new Error(`message refused: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function stateOf(base: string, id: string): Promise<{ status: string; mode: string; lastSeq: number }> {
  return (await http(`${base}/api/sessions/${id}`, "GET")).body.state;
}

export async function eventsOf(base: string, id: string): Promise<LoggedEvent[]> {
  return (await http(`${base}/api/sessions/${id}/events?limit=5000`, "GET")).body.events;
}

/** Waits until the session has `status` and (for idle) no instance holds its lease any more. */
export async function waitStatus(c: Cluster, base: string, id: string, status: string, ms = 20_000): Promise<void> {
  await until(
    async () => {
      const [row] = await c.query<{ leaseOwner: string | null }>('SELECT "leaseOwner" FROM "Session" WHERE "id" = $1', [
        id,
      ]);
      return { status: (await stateOf(base, id)).status, lease: row?.leaseOwner ?? null };
    },
    (v) => v.status === status && (status !== "idle" || v.lease === null),
    ms,
  );
}

/** Fires `n` requests at once, request i going to instance i mod the number of instances. */
export async function race(
  servers: Server[],
  n: number,
  path: (i: number) => string,
  body: (i: number) => unknown,
): Promise<{ i: number; status: number; body: any }[]> {
  const gate = Array.from({ length: n }, (_, i) => ({ i, url: `${servers[i % servers.length]!.url}${path(i)}` }));
  return Promise.all(gate.map(async ({ i, url }) => ({ i, ...(await http(url, "POST", body(i))) })));
}

export const ofType = (events: LoggedEvent[], type: string) => events.filter((e) => e.type === type);
export const lines = (file: string): string[] =>
  fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

export type SseEvent = { id: number; data: LoggedEvent };

/** An SSE subscription read with fetch: every `session-event` in arrival order (drafts and comments skipped). */
export type Stream = {
  events: SseEvent[];
  /** Resolves once the server sent its first bytes (`: connected`). */
  connected: Promise<void>;
  /** Waits until pred holds over the events received so far. */
  until: (pred: (events: SseEvent[]) => boolean, ms?: number) => Promise<void>;
  close: () => void;
};

export function openStream(base: string, id: string, lastEventId?: number): Stream {
  const ctrl = new AbortController();
  const close = () => {
    openStreams.delete(close);
    ctrl.abort();
  };
  openStreams.add(close);
  const events: SseEvent[] = [];
  let error: unknown = null;
  let onConnected: () => void = () => undefined;
  const connected = new Promise<void>((r) => (onConnected = r));
  void (async () => {
    const res = await fetch(`${base}/api/sessions/${id}/stream`, {
      headers: { ...operatorHeaders(), ...(lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) }) },
      signal: ctrl.signal,
    });
    if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onConnected();
      buffer += value;
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut).split("\n");
        buffer = buffer.slice(cut + 2);
        const field = (name: string) => block.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
        if (field("event") !== "session-event") continue;
        events.push({ id: Number(field("id")), data: JSON.parse(field("data") ?? "null") as LoggedEvent });
      }
    }
  })().catch((e: unknown) => {
    if (!ctrl.signal.aborted) error = e;
  });
  return {
    events,
    connected,
    async until(pred, ms = 20_000) {
      await waitFor(
        () => `stream ${base}; it has ids ${events.map((e) => e.id).join(",")}`,
        () => {
          if (error) throw error;
          return pred(events);
        },
        ms,
        50,
      );
    },
    close,
  };
}

function parentOf(pid: number): number | null {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const m = /^PPid:\s+(\d+)/m.exec(status);
  return m ? Number(m[1]) : null;
}

/** Every process's command line (NUL as space) and parent, from /proc. */
function processes(): { pid: number; ppid: number; cmd: string }[] {
  const out: { pid: number; ppid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? 0);
      out.push({ pid: Number(entry), ppid, cmd });
    } catch {
      // the process ended while we read it
    }
  }
  return out;
}

/**
 * The instance whose process tree runs `program` as a child of the shell running a command that contains
 * `marker` (a tool call's command), or null: which instance is mid-step, found from the operating system rather
 * than trusted from the app. Waiting for the program itself (not just the sandbox starting) means the sandbox
 * is set up, so it dies with its instance (bwrap arms --die-with-parent only after its clone).
 */
export function instanceRunning(servers: Server[], marker: string, program = "sleep "): Server | null {
  const all = processes();
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const shells = new Set(all.filter((p) => p.cmd.includes(marker)).map((p) => p.pid));
  for (const p of all) {
    if (!p.cmd.startsWith(program) || !shells.has(p.ppid)) continue;
    for (let at: number | undefined = p.pid; at && at > 1; at = byPid.get(at)?.ppid) {
      const server = servers.find((s) => s.proc.pid === at);
      if (server) return server;
    }
  }
  return null;
}
