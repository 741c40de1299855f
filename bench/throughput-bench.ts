/**
 * Issue 43's throughput: approvals and outside agents' plan submissions from 8 concurrent clients against one real
 * server (scripts/serve.mjs, as `npm start` runs it), SQLite and PostgreSQL, beside the floor: a bare node:http
 * server in its own process answering the same clients with a JSON body of the approval answer's size.
 *
 * Approvals: each round makes REVIEWS sessions in plan mode whose scripted model calls exit_plan_mode, waits until
 * every one is a pending review and nothing runs, then the clients approve them all; figures: approvals/s (until
 * the last answer), each request's latency p50/p95, and settled/s (until no resumed turn runs any more).
 * Submissions: SUBMISSIONS outside plans (a new outside session each, as Claude Code's hook sends them), same clients.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchPostgres } from "./lib/pg";
import { type AppServer, buildIfStale, freePort, request, send, sleep, startAppServer } from "./lib/servers";
import { median, quantile, round } from "./lib/stats";
import { expect, type Pending, pendingReviews, pool, type Setup, settled } from "./scale-bench";

const ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3);
const REVIEWS = Number(process.env.BENCH_THROUGHPUT_REVIEWS ?? 200);
const SUBMISSIONS = Number(process.env.BENCH_THROUGHPUT_SUBMISSIONS ?? 400);
const CLIENTS = 8;

type Figures = { perSec: number; p50: number; p95: number };

/** Runs n requests from CLIENTS loops; each request's latency, and n per second of the whole. */
async function timed(n: number, one: (i: number) => Promise<void>): Promise<Figures> {
  const lat: number[] = [];
  const start = performance.now();
  await pool(CLIENTS, n, async (i) => {
    const t = performance.now();
    await one(i);
    lat.push(performance.now() - t);
  });
  const all = performance.now() - start;
  const s = lat.sort((a, b) => a - b);
  return { perSec: (n * 1000) / all, p50: quantile(s, 0.5), p95: quantile(s, 0.95) };
}

/** A bare node:http server in its own process, answering every request with `body` (the floor). */
async function bareServer(body: string): Promise<{ port: number; stop: () => void }> {
  const port = await freePort();
  const script = `const h=require("node:http");const srv=h.createServer((q,s)=>{q.resume();q.on("end",()=>{s.setHeader("content-type","application/json");s.end(${JSON.stringify(body)})})});srv.keepAliveTimeout=65000;srv.listen(${port},"127.0.0.1",()=>console.log("up"));`;
  const proc = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => proc.stdout?.once("data", () => resolve()));
  return { port, stop: () => proc.kill() };
}

type Round = Record<string, { approve: Figures; settledPerSec: number; submit: Figures; floor: Figures }>;

async function oneRound(setups: Setup[], workspace: string, floorPort: number, tag: string): Promise<Round> {
  const out: Round = {};
  for (const s of setups) {
    const port = s.ports[0] as number;
    const pending = await pendingReviews(s, workspace, REVIEWS);
    await settled(s);
    await sleep(300);
    const start = performance.now();
    const approve = await timed(pending.length, async (i) => {
      const r = await request(port, "POST", `/api/reviews/${(pending[i] as Pending).reviewId}/decision`, {
        decision: "approve",
      });
      expect("the decision", r, 200);
    });
    await settled(s);
    const settledPerSec = (pending.length * 1000) / (performance.now() - start);
    const submit = await timed(SUBMISSIONS, async (i) => {
      const r = await request(port, "POST", "/api/external/plan-reviews", {
        agent: "claude-code",
        externalSessionId: `throughput-${tag}-${i}`,
        cwd: `/bench/project-${i % 7}`,
        plan: `# Plan ${i}: add the thing\n\n1. Change \`src/thing-${i}.ts\`\n2. Test it\n`,
      });
      expect("the submission", r, 201);
    });
    // The floor in the same round, the same clients, the same request shape.
    const floor = await timed(REVIEWS, async () => {
      const r = await send(floorPort, "POST", "/", { body: { decision: "approve" } });
      expect("the floor", r, 200);
    });
    out[s.name] = { approve, settledPerSec, submit, floor };
  }
  return out;
}

export async function benchThroughput() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-throughput-"));
  const workspace = path.join(dir, "roots", "ws");
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, "README.md"), "# bench\n");
  const pg = await benchPostgres();
  const servers: AppServer[] = [];
  const common = { PLANGATE_ALLOW_SCRIPTED: "1", PLANGATE_WORKSPACE_ROOTS: path.join(dir, "roots") };
  const floor = await bareServer(
    JSON.stringify({ review: { id: "x".repeat(24), status: "approved" }, recorded: false }),
  );
  const rounds: Round[] = [];
  try {
    buildIfStale();
    const start = async (name: "sqlite1" | "pg1", url: string): Promise<Setup> => {
      const s = await startAppServer({
        ...common,
        DATABASE_URL: url,
        PLANGATE_DATA_DIR: path.join(dir, `data-${name}`),
      });
      servers.push(s);
      return { name, ports: [s.port] };
    };
    const setups = [
      await start("sqlite1", `file:${path.join(dir, "sqlite", "plangate.db")}`),
      await start("pg1", await pg.database("throughput")),
    ];
    await oneRound(setups, workspace, floor.port, "warm");
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? setups : [...setups].reverse();
      const one = await oneRound(order, workspace, floor.port, `r${r}`);
      rounds.push(one);
      const line = Object.entries(one)
        .map(
          ([n, f]) =>
            `${n} approvals ${round(f.approve.perSec, 0)}/s p95 ${round(f.approve.p95, 1)} ms, submissions ${round(f.submit.perSec, 0)}/s p50 ${round(f.submit.p50, 1)} ms`,
        )
        .join("; ");
      process.stderr.write(`  round ${r + 1}/${ROUNDS}: ${line}\n`);
    }
  } finally {
    for (const s of servers) await s.stop();
    floor.stop();
    await pg.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const med = (name: string, pick: (f: Round[string]) => number) =>
    round(median(rounds.map((r) => pick(r[name] as Round[string]))), 2);
  const of = (name: string) => ({
    approvalsPerSec: med(name, (f) => f.approve.perSec),
    approvalMs: { p50: med(name, (f) => f.approve.p50), p95: med(name, (f) => f.approve.p95) },
    settledPerSec: med(name, (f) => f.settledPerSec),
    submissionsPerSec: med(name, (f) => f.submit.perSec),
    submissionMs: { p50: med(name, (f) => f.submit.p50), p95: med(name, (f) => f.submit.p95) },
    floor: {
      perSec: med(name, (f) => f.floor.perSec),
      p50: med(name, (f) => f.floor.p50),
      p95: med(name, (f) => f.floor.p95),
    },
    approvalsBelowFloor: med(name, (f) => f.floor.perSec / f.approve.perSec),
    submissionsBelowFloor: med(name, (f) => f.floor.perSec / f.submit.perSec),
  });
  return {
    name: "throughput-approvals-submissions",
    database: pg.source,
    cpus: os.cpus().length,
    loadAverage: round(os.loadavg()[0] as number, 2),
    rounds: ROUNDS,
    clients: CLIENTS,
    reviewsPerRound: REVIEWS,
    submissionsPerRound: SUBMISSIONS,
    targets: "approvals >= 100/s with p95 < 150 ms; submissions >= 400/s with p50 < 20 ms (SQLite)",
    sqlite: of("sqlite1"),
    postgres: of("pg1"),
  };
}
