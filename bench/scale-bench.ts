/**
 * Many instances on one PostgreSQL (issue 16), measured through real servers (scripts/serve.mjs, as `npm start`
 * runs them) and clients in this process on a keep-alive agent. Three set-ups run side by side in one run:
 * SQLite with one instance, PostgreSQL with one instance, PostgreSQL with three instances (each PostgreSQL
 * set-up has a database of its own on the same server; idle instances of the other set-ups stay up).
 *
 * Throughput: N sessions in plan mode (the scripted model calls exit_plan_mode, so each waits on a plan review)
 * are created through the API, then K concurrent clients approve them, request i going to instance i mod n
 * (a round-robin balancer). Approvals/s = N / time until the last 200; "settled" = until no session is running
 * any more (each approval resumes the turn, which ends: the work an approval sets going, on any instance).
 *
 * Latency: one approval at a time (human-paced: the next starts once the session settled); a subscriber opens
 * the session's SSE stream on instance B, the POST goes to instance A, and the sample is the time from sending
 * the POST to the review.answered event arriving at B. PostgreSQL with three instances: B ≠ A (the event crosses
 * instances through LISTEN/NOTIFY); with one instance (SQLite, PostgreSQL) B = A.
 *
 * Rounds rotate the set-ups' order; latency samples are interleaved set-up by set-up within a round.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchPostgres } from "./lib/pg";
import { type AppServer, buildIfStale, request, sleep, startAppServer, subscribe } from "./lib/servers";
import { median, quantile, round } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 5);
const REVIEWS = Number(process.env.BENCH_SCALE_REVIEWS ?? 200);
const CLIENTS = Number(process.env.BENCH_SCALE_CLIENTS ?? 8);
const LATENCY = Number(process.env.BENCH_SCALE_LATENCY ?? 40);
const PLAN = "# Plan: greeting\n\n1. Write the greeting in src/hello.ts\n";
const SCRIPT = [{ toolCalls: [{ name: "exit_plan_mode", input: { plan: PLAN } }] }];

type Name = "sqlite1" | "pg1" | "pg3";
export type Setup = { name: Name; ports: number[] };
export type Pending = { sessionId: string; reviewId: string };

/** Runs `workers` loops over indexes 0..n-1 (each index once), as concurrent clients do. */
export async function pool(workers: number, n: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(workers, n) }, async () => {
      for (let i = next++; i < n; i = next++) await fn(i);
    }),
  );
}

export function expect(what: string, answer: { status: number; body: unknown }, status: number): any {
  if (answer.status !== status)
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body;
}

export async function until<T>(what: string, fn: () => Promise<T | null>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** n sessions (created across the set-up's instances) each waiting on a pending plan review. */
export async function pendingReviews(setup: Setup, workspace: string, n: number): Promise<Pending[]> {
  const ids: string[] = [];
  await pool(CLIENTS, n, async (i) => {
    const port = setup.ports[i % setup.ports.length] as number;
    const body = { title: `approve ${i}`, workspace, mode: "plan", model: "scripted", script: SCRIPT };
    const { session } = expect("POST /api/sessions", await request(port, "POST", "/api/sessions", body), 201);
    expect(
      "POST messages",
      await request(port, "POST", `/api/sessions/${session.id}/messages`, { text: "plan the greeting" }),
      202,
    );
    ids[i] = session.id as string;
  });
  const port = setup.ports[0] as number;
  const out: Pending[] = [];
  for (const sessionId of ids) {
    const reviewId = await until(`the review of ${sessionId}`, async () => {
      const { reviews } = expect(
        "GET /api/reviews",
        await request(port, "GET", `/api/reviews?status=pending&sessionId=${sessionId}`),
        200,
      );
      return (reviews[0]?.id as string | undefined) ?? null;
    });
    out.push({ sessionId, reviewId });
  }
  return out;
}

/** Until no session of the set-up's database is running (every approval's resumed turn has ended). */
export async function settled(setup: Setup): Promise<void> {
  const port = setup.ports[0] as number;
  await until("the sessions to settle", async () => {
    const { sessions } = expect(
      "GET /api/sessions",
      await request(port, "GET", "/api/sessions?status=running&limit=1"),
      200,
    );
    return sessions.length === 0 ? true : null;
  });
}

const approve = (port: number, reviewId: string) =>
  request(port, "POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" });

async function throughput(
  setup: Setup,
  reviews: Pending[],
): Promise<{ approvalsPerSec: number; settledPerSec: number }> {
  const start = performance.now();
  await pool(CLIENTS, reviews.length, async (i) => {
    expect(
      "the decision",
      await approve(setup.ports[i % setup.ports.length] as number, (reviews[i] as Pending).reviewId),
      200,
    );
  });
  const answered = performance.now() - start;
  await settled(setup);
  const all = performance.now() - start;
  return { approvalsPerSec: (reviews.length * 1000) / answered, settledPerSec: (reviews.length * 1000) / all };
}

/** One approval: subscriber on instance B, POST to instance A; ms from the POST's send to the event at B (and to its answer). */
async function latency(setup: Setup, review: Pending, i: number): Promise<{ event: number; answer: number }> {
  const n = setup.ports.length;
  const a = setup.ports[i % n] as number;
  const b = setup.ports[(i + 1) % n] as number;
  const sub = await subscribe(b, `/api/sessions/${review.sessionId}/stream`);
  // The subscriber catches up on the log meanwhile; a click after a pause.
  await sleep(20);
  const seen = sub.seen('"type":"review.answered"');
  const start = performance.now();
  expect("the decision", await approve(a, review.reviewId), 200);
  const answered = performance.now();
  const at = await Promise.race([seen, sleep(30_000).then(() => NaN)]);
  sub.close();
  if (Number.isNaN(at)) throw new Error(`review.answered never reached the subscriber (${setup.name})`);
  await until("the session to settle", async () => {
    const { state } = expect("GET session", await request(a, "GET", `/api/sessions/${review.sessionId}`), 200);
    return state.status === "running" ? null : true;
  });
  return { event: at - start, answer: answered - start };
}

const pct = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return { p50: round(quantile(s, 0.5), 2), p99: round(quantile(s, 0.99), 2) };
};
const spread = (xs: number[]) => ({
  median: round(median(xs), 2),
  range: [round(Math.min(...xs), 2), round(Math.max(...xs), 2)],
});

type Round = {
  throughput: Record<Name, { approvalsPerSec: number; settledPerSec: number }>;
  latency: Record<Name, number[]>;
  answer: Record<Name, number[]>;
};

async function oneRound(
  setups: Setup[],
  workspace: string,
  r: number,
  reviews: number,
  samples: number,
): Promise<Round> {
  const order = setups.map((_, k) => setups[(r + k) % setups.length] as Setup);
  const out: Round = {
    throughput: {} as Round["throughput"],
    latency: { sqlite1: [], pg1: [], pg3: [] },
    answer: { sqlite1: [], pg1: [], pg3: [] },
  };
  for (const s of order) {
    const pending = await pendingReviews(s, workspace, reviews);
    await settled(s);
    await sleep(300);
    out.throughput[s.name] = await throughput(s, pending);
  }
  const lat = new Map<Name, Pending[]>();
  for (const s of order) lat.set(s.name, await pendingReviews(s, workspace, samples));
  for (const s of order) await settled(s);
  for (let i = 0; i < samples; i++) {
    for (const s of order) {
      const one = await latency(s, (lat.get(s.name) as Pending[])[i] as Pending, i);
      out.latency[s.name].push(one.event);
      out.answer[s.name].push(one.answer);
    }
  }
  return out;
}

export async function benchScale() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-scale-"));
  const workspace = path.join(dir, "roots", "ws");
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "README.md"), "# bench\n");
  const pg = await benchPostgres();
  const servers: AppServer[] = [];
  const common = { PLANGATE_ALLOW_SCRIPTED: "1", PLANGATE_WORKSPACE_ROOTS: path.join(dir, "roots") };
  const start = async (name: string, url: string) => {
    const s = await startAppServer({ ...common, DATABASE_URL: url, PLANGATE_DATA_DIR: path.join(dir, `data-${name}`) });
    servers.push(s);
    return s.port;
  };
  const rounds: Round[] = [];
  const loadBefore = os.loadavg()[0] as number;
  try {
    const one = await pg.database("scale_one");
    const three = await pg.database("scale_three");
    const built = buildIfStale();
    // One at a time: the first start finds the build fresh, so no two servers ever build together.
    const setups: Setup[] = [
      { name: "sqlite1", ports: [await start("sqlite", `file:${path.join(dir, "sqlite", "plangate.db")}`)] },
      { name: "pg1", ports: [await start("pg1", one)] },
      { name: "pg3", ports: [await start("pg3a", three), await start("pg3b", three), await start("pg3c", three)] },
    ];
    process.stderr.write(`  ${built ? "built, " : ""}5 servers up on ${pg.source}\n`);
    // Warm every instance (route compilation, JIT, pools) outside the figures.
    await oneRound(setups, workspace, 0, 30, 6);
    for (let r = 0; r < ROUNDS; r++) {
      const one = await oneRound(setups, workspace, r, REVIEWS, LATENCY);
      rounds.push(one);
      const t = one.throughput;
      process.stderr.write(
        `  round ${r + 1}/${ROUNDS}: approvals/s sqlite1 ${round(t.sqlite1.approvalsPerSec, 1)}, pg1 ${round(t.pg1.approvalsPerSec, 1)}, pg3 ${round(t.pg3.approvalsPerSec, 1)}; ` +
          `p99 ms sqlite1 ${pct(one.latency.sqlite1).p99}, pg1 ${pct(one.latency.pg1).p99}, pg3 (other instance) ${pct(one.latency.pg3).p99}\n`,
      );
    }
  } finally {
    for (const s of servers) await s.stop();
    await pg.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // Anything the servers logged as failing (a drive, a listener) makes the figures suspect: reported with them.
  const errors = servers.flatMap((s) => s.log().split("\n")).filter((l) => /error|failed|unhandled/i.test(l));
  const names: Name[] = ["sqlite1", "pg1", "pg3"];
  const per = (name: Name, k: "approvalsPerSec" | "settledPerSec") => rounds.map((r) => r.throughput[name][k]);
  const ratio = (a: Name, b: Name, k: "approvalsPerSec" | "settledPerSec") =>
    spread(rounds.map((r) => r.throughput[a][k] / r.throughput[b][k]));
  const latencies = (name: Name) => rounds.flatMap((r) => r.latency[name]);
  return {
    name: "scale-approvals-instances",
    database: pg.source,
    cpus: os.cpus().length,
    // Others' work on the machine (1-minute load average at the start and the end): the figures are noisier the higher.
    loadAverage: [round(loadBefore, 2), round(os.loadavg()[0] as number, 2)],
    note: "three instances on 2 cores measure the cost of coordinating through PostgreSQL, not scaling",
    rounds: ROUNDS,
    reviewsPerRound: REVIEWS,
    concurrentClients: CLIENTS,
    latencySamplesPerRound: LATENCY,
    approvalsPerSec: Object.fromEntries(names.map((n) => [n, spread(per(n, "approvalsPerSec"))])),
    settledPerSec: Object.fromEntries(names.map((n) => [n, spread(per(n, "settledPerSec"))])),
    ratios: {
      pg3OverPg1: ratio("pg3", "pg1", "approvalsPerSec"),
      pg1OverSqlite1: ratio("pg1", "sqlite1", "approvalsPerSec"),
      pg3OverPg1Settled: ratio("pg3", "pg1", "settledPerSec"),
    },
    latencyMs: {
      sqlite1SameInstance: pct(latencies("sqlite1")),
      pg1SameInstance: pct(latencies("pg1")),
      pg3OtherInstance: pct(latencies("pg3")),
    },
    // The same samples, until the POST's 200 (the deciding instance's answer).
    decisionAnswerMs: Object.fromEntries(names.map((n) => [n, pct(rounds.flatMap((r) => r.answer[n]))])),
    latencyP99PerRound: Object.fromEntries(names.map((n) => [n, rounds.map((r) => pct(r.latency[n]).p99)])),
    latencyP99RatioPg3OverSqlite1: spread(rounds.map((r) => pct(r.latency.pg3).p99 / pct(r.latency.sqlite1).p99)),
    perRound: rounds.map((r) => ({ throughput: r.throughput })),
    serverErrorLines: errors.length,
    serverErrorSample: errors.slice(0, 5),
  };
}
