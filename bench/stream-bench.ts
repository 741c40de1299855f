/**
 * What open, idle SSE streams cost the server process (target: 1,000 of them under 1% of one core), against the
 * same process with no stream open, and how soon an event written outside this process's bus reaches a stream.
 */
import { setMaxListeners } from "node:events";
import Database from "better-sqlite3";
import { resetEnvCache } from "../lib/env";
import { appendEvents } from "../lib/session/append-events";
import { createSession } from "../lib/session/create-session";
import { streamSessionEvents } from "../lib/session/stream-events";
import { median, quantile, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 5);
// As long as the heartbeat period, so every window with streams holds exactly one heartbeat burst.
const WINDOW_MS = Number(process.env.BENCH_STREAM_WINDOW_MS ?? 15_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_STREAM_SAMPLES ?? 40);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Open = { seen: number; wanted: Map<number, () => void>; done: Promise<void> };

/** A stream with a reader draining it, as a browser would; resolves waiters as ids go by. */
function openStream(db: Parameters<typeof streamSessionEvents>[0], sessionId: string, signal: AbortSignal): Open {
  const reader = streamSessionEvents(db, sessionId, 0, signal).getReader();
  const decoder = new TextDecoder();
  const s: Open = { seen: 0, wanted: new Map(), done: Promise.resolve() };
  s.done = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      for (const m of decoder.decode(r.value).matchAll(/^id: (\d+)$/gm)) {
        s.seen = Number(m[1]);
        s.wanted.get(s.seen)?.();
        s.wanted.delete(s.seen);
      }
    }
  })();
  return s;
}

function reached(s: Open, seq: number): Promise<void> {
  return s.seen >= seq ? Promise.resolve() : new Promise((resolve) => s.wanted.set(seq, resolve));
}

/** Percent of one core this process used over an idle window. */
async function idleCpu(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // Let collection and background compilation left over from setup finish before the window opens.
  for (let i = 0; i < 3; i++) {
    gc?.();
    await sleep(300);
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(WINDOW_MS);
  const cpu = process.cpuUsage(cpu0);
  return ((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100;
}

export async function benchStreams() {
  const t = tempDb("streams");
  Object.assign(process.env, { DATABASE_URL: t.url });
  resetEnvCache();
  (globalThis as { plangateDb?: unknown }).plangateDb = t.db;
  const ids: string[] = [];
  for (let i = 0; i < STREAMS; i++) {
    ids.push(
      (
        await createSession(t.db, {
          title: `s${i}`,
          workspace: "/tmp",
          agent: "build",
          model: "offline",
          mode: "default",
        })
      ).id,
    );
  }
  const openAll = async () => {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal); // one signal closes every stream here; a server has one per request
    const streams = ids.map((id) => openStream(t.db, id, controller.signal));
    await Promise.all(streams.map((s) => reached(s, 1)));
    await sleep(1500); // past the watcher's first full check
    return {
      streams,
      close: async () => {
        controller.abort();
        await Promise.all(streams.map((s) => s.done));
      },
    };
  };

  // Rounds alternate between no stream and STREAMS idle streams, so load from elsewhere hits both alike.
  await (await openAll()).close(); // warm-up: first-run compilation would otherwise land in round one
  const floor: number[] = [];
  const withStreams: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    floor.push(await idleCpu());
    const open = await openAll();
    withStreams.push(await idleCpu());
    await open.close();
  }

  // Latency with every stream open: a raw connection stands in for another server process (its commits reach
  // this one only through the database), and an in-process append (the bus) for contrast.
  const open = await openAll();
  const writer = new Database(t.file, { timeout: 10_000 });
  const insert = writer.prepare(
    'INSERT INTO "SessionEvent" ("sessionId", "seq", "type", "payload", "createdAt") VALUES (?, ?, ?, ?, ?)',
  );
  const bump = writer.prepare('UPDATE "Session" SET "lastSeq" = ? WHERE "id" = ?');
  const lastSeq = new Map(ids.map((id) => [id, 1]));
  const elsewhere = writer.transaction((id: string, seq: number) => {
    insert.run(id, seq, "notice", JSON.stringify({ level: "info", text: `elsewhere ${seq}` }), Date.now());
    bump.run(seq, id);
  });
  const crossMs: number[] = [];
  const busMs: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const k = (i * 7919) % ids.length;
    const id = ids[k] as string;
    const stream = open.streams[k] as Open;
    await sleep(Math.random() * 600); // spread writes over the watcher's tick phase
    const seq = (lastSeq.get(id) ?? 0) + 1;
    let at = performance.now();
    elsewhere(id, seq);
    await reached(stream, seq);
    crossMs.push(performance.now() - at);
    at = performance.now();
    await appendEvents(t.db, id, [{ type: "notice", payload: { level: "info", text: "here" } }]);
    await reached(stream, seq + 1);
    busMs.push(performance.now() - at);
    lastSeq.set(id, seq + 1);
  }
  writer.close();
  await open.close();
  await t.dispose();

  const extra = withStreams.map((w, i) => w - (floor[i] as number));
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  return {
    name: "idle-streams",
    streams: STREAMS,
    rounds: ROUNDS,
    windowMs: WINDOW_MS,
    percentOfCoreWithStreams: round(median(withStreams), 3),
    percentOfCoreFloor: round(median(floor), 3),
    percentOfCoreForStreams: round(median(extra), 3),
    targetPercentOfCore: 1,
    perRound: withStreams.map((w, i) => ({ withStreams: round(w, 3), floor: round(floor[i] as number, 3) })),
    crossProcessLatencyMs: {
      median: round(median(crossMs), 1),
      p95: round(quantile(sorted(crossMs), 0.95), 1),
      samples: crossMs.length,
    },
    busLatencyMs: { median: round(median(busMs), 2), p95: round(quantile(sorted(busMs), 0.95), 2) },
  };
}
