/**
 * Approval latency: a plan decision POSTed to the real route handler until the decision event reaches a second
 * SSE subscriber of the session, in a git workspace of 10,000 tracked files, against the floor measured in the
 * same run: a bare node:http server whose POST handler writes an event to a connected SSE client. The clients
 * (the poster and two SSE subscribers) run in a child process, as a browser would: what the server does after
 * the event is on the wire counts only through the CPU it takes. Samples are interleaved (floor, real, floor,
 * real…) over several rounds; each starts once the last one's background work is done (the baseline snapshot,
 * then the agent's first step, a command that waits for a person's permission), as approvals are human-paced.
 */
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import * as decisionRoute from "../app/api/reviews/[id]/decision/route";
import * as streamRoute from "../app/api/sessions/[id]/stream/route";
import type { Db } from "../lib/db/client";
import { sql } from "../lib/db/sql";
import { resetEnvCache } from "../lib/env";
import { median, quantile, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";
import { personCookie } from "./lib/credential";
import { waitingReview } from "./lib/waiting-review";
import { readBody, listen, floorServer, subscribe, post } from "./lib/sse-wire";

const FILES = 10_000;
const ROUNDS = Number(process.env.BENCH_APPROVAL_ROUNDS ?? 5);
// Over 100 samples a round's p99 is not simply its slowest sample.
const SAMPLES = Number(process.env.BENCH_APPROVAL_SAMPLES ?? 100);
// BENCH_APPROVAL_GIT=0: the same files without git, so the baseline is the files' manifest (issue 28).
const GIT = process.env.BENCH_APPROVAL_GIT !== "0";
const PLAN = "# Plan: greeting\n\n1. Write the greeting in src/hello.ts\n";

type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;

/** A repository of FILES committed files (100 folders of 100), the size the target names. */
function gitWorkspace(root: string): string {
  const ws = path.join(root, "repo");
  for (let d = 0; d < FILES / 100; d++) {
    fs.mkdirSync(path.join(ws, "src", `m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++)
      fs.writeFileSync(path.join(ws, "src", `m${d}`, `f${f}.ts`), `export const v${f} = ${d};\n`);
  }
  // The agent's first step after the approval (a command) then waits for a person, so a sample's background ends there.
  fs.mkdirSync(path.join(ws, ".plangate"));
  fs.writeFileSync(path.join(ws, ".plangate", "config.json"), JSON.stringify({ permission: { bash: { "*": "ask" } } }));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: ws, stdio: "pipe" });
  if (GIT) {
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
  }
  return fs.realpathSync(ws);
}

/** Plangate's real handlers (the decision route, the session stream route) behind a plain node:http server. */
function plangateServer(port: () => number): http.Server {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port()}`);
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const decision = /^\/api\/reviews\/([^/]+)\/decision$/.exec(url.pathname);
    const stream = /^\/api\/sessions\/([^/]+)\/stream$/.exec(url.pathname);
    const [handler, id] = decision
      ? [decisionRoute.POST as Handler, decision[1]]
      : stream
        ? [streamRoute.GET as Handler, stream[1]]
        : [null, null];
    if (!handler || !id) return void res.writeHead(404).end();
    const body = req.method === "POST" ? await readBody(req) : undefined;
    const response = await handler(
      new Request(url, {
        method: req.method,
        // The person's session cookie, as the browser sent it (identify() checks it on every request).
        headers: { "content-type": "application/json", cookie: req.headers.cookie ?? "" },
        body,
        signal: abort.signal,
      }),
      { params: Promise.resolve({ id }) },
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    } catch {
      // the client went away
    }
    res.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One session in plan mode waiting on its plan review (its next step, a command, waits for a person). */
const openReview = (db: Db, workspace: string) =>
  waitingReview(db, workspace, [
    { toolCalls: [{ name: "exit_plan_mode", input: { plan: PLAN } }] },
    { toolCalls: [{ name: "bash", input: { command: "touch notes.txt" } }] },
  ]);

/** Waits for what the approval set going in the background: the baseline, then the agent's step up to its ask. */
async function quiet(db: Db, sessionId: string, since: number): Promise<number> {
  const run = await sql(db);
  let baselineMs = NaN;
  for (let i = 0; i < 6000; i++) {
    const [row] = await run.query<{ tree: string | null; lease: string | null; status: string }>(
      'SELECT v."baselineTree" AS "tree", s."leaseOwner" AS "lease", s."status" FROM "Session" s JOIN "Plan" p ON p."sessionId" = s."id" JOIN "PlanVersion" v ON v."planId" = p."id" WHERE s."id" = ?',
      [sessionId],
    );
    if (row?.tree && Number.isNaN(baselineMs)) baselineMs = performance.now() - since;
    if (row?.tree && !row.lease && row.status === "awaiting_permission") return baselineMs;
    await sleep(5);
  }
  throw new Error(`session ${sessionId} did not settle after its approval`);
}

type Ask =
  | { kind: "floor"; port: number; marker: string }
  | { kind: "real"; port: number; sessionId: string; reviewId: string; cookie: string };

/** In the client process: two subscribers, then the POST; the time until the second subscriber has the event. */
async function measure(ask: Ask): Promise<number> {
  const stream = ask.kind === "floor" ? "/sse" : `/api/sessions/${ask.sessionId}/stream`;
  const cookie = ask.kind === "real" ? ask.cookie : undefined;
  const first = await subscribe(ask.port, stream, cookie ? { cookie } : {});
  const second = await subscribe(ask.port, stream, cookie ? { cookie } : {});
  // Both sides idle alike before the POST (the subscribers catch up on the log meanwhile): a click after a pause.
  await sleep(20);
  const marker = ask.kind === "floor" ? ask.marker : '"type":"review.answered"';
  const seen = second.seen(marker);
  const start = performance.now();
  const status =
    ask.kind === "floor"
      ? await post(ask.port, "/post", `{${marker},"decision":"approve"}`)
      : await post(
          ask.port,
          `/api/reviews/${ask.reviewId}/decision`,
          JSON.stringify({ decision: "approve", mode: "acceptEdits" }),
          ask.cookie,
        );
  if (status !== 200) throw new Error(`the POST answered ${status}`);
  const at = await seen;
  first.close();
  second.close();
  return at - start;
}

type Answer = { ms: number } | { error: string };

/** The parent's side of the client process: one measurement per call, in order. */
function clientProcess(): { measure: (ask: Ask) => Promise<number>; stop: () => void } {
  const child: ChildProcess = fork(import.meta.filename, [], {
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    env: { ...process.env, PLANGATE_BENCH_APPROVAL_CLIENT: "1" },
  });
  let pending: ((a: Answer) => void) | null = null;
  child.on("message", (m) => pending?.(m as Answer));
  return {
    measure: (ask) =>
      new Promise((resolve, reject) => {
        pending = (a) => ("ms" in a ? resolve(a.ms) : reject(new Error(a.error)));
        child.send(ask);
      }),
    stop: () => child.kill(),
  };
}

async function realSample(
  db: Db,
  port: number,
  workspace: string,
  client: ReturnType<typeof clientProcess>,
  cookie: string,
): Promise<{ ms: number; baselineMs: number }> {
  const { sessionId, reviewId } = await openReview(db, workspace);
  const start = performance.now();
  const ms = await client.measure({ kind: "real", port, sessionId, reviewId, cookie });
  return { ms, baselineMs: await quiet(db, sessionId, start) };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(quantile(s, 0.5), 2), p99: round(quantile(s, 0.99), 2) };
};

export async function benchApproval() {
  const t = tempDb("approval");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-approval-"));
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    PLANGATE_ALLOW_SCRIPTED: "1",
    PLANGATE_WORKSPACE_ROOTS: root,
    PLANGATE_DATA_DIR: root,
  });
  resetEnvCache();
  (globalThis as { plangateDb?: unknown }).plangateDb = t.db;
  const workspace = gitWorkspace(root);
  // A reviewer of the workspace, signed in: the decision is theirs, checked from their cookie on every request.
  const cookie = await personCookie(t.db, root, "reviewer");
  const floor = floorServer();
  const floorPort = await listen(floor);
  let realPort = 0;
  const real = plangateServer(() => realPort);
  realPort = await listen(real);
  const subs: { floor: number[]; real: number[]; baseline: number[] }[] = [];
  const client = clientProcess();
  const floorSample = (n: number) => client.measure({ kind: "floor", port: floorPort, marker: `"nonce":"f${n}"` });
  try {
    // Warm both paths (route modules, prepared statements, the sandbox) outside the figures.
    for (let i = 0; i < 3; i++) {
      await floorSample(-i - 1);
      await realSample(t.db, realPort, workspace, client, cookie);
    }
    for (let r = 0; r < ROUNDS; r++) {
      const one = { floor: [] as number[], real: [] as number[], baseline: [] as number[] };
      for (let i = 0; i < SAMPLES; i++) {
        one.floor.push(await floorSample(r * SAMPLES + i));
        const s = await realSample(t.db, realPort, workspace, client, cookie);
        one.real.push(s.ms);
        one.baseline.push(s.baselineMs);
      }
      subs.push(one);
      process.stderr.write(
        `  round ${r + 1}/${ROUNDS}: floor p99 ${stats(one.floor).p99} ms, real p99 ${stats(one.real).p99} ms\n`,
      );
    }
  } finally {
    client.stop();
    floor.close();
    real.close();
    floor.closeAllConnections();
    real.closeAllConnections();
    await sleep(200);
    await t.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
  const perRound = subs.map((r) => ({
    floor: stats(r.floor),
    real: stats(r.real),
    ratioP99: round(stats(r.real).p99 / stats(r.floor).p99, 2),
  }));
  const ratios = perRound.map((r) => r.ratioP99);
  return {
    name: "approval-to-second-subscriber",
    credential: "a signed-in reviewer's session cookie",
    trackedFiles: FILES,
    baseline: GIT ? "git tree" : "file manifest (no git)",
    rounds: ROUNDS,
    samplesPerRound: SAMPLES,
    floorMs: stats(subs.flatMap((r) => r.floor)),
    realMs: stats(subs.flatMap((r) => r.real)),
    ratioP50: round(stats(subs.flatMap((r) => r.real)).p50 / stats(subs.flatMap((r) => r.floor)).p50, 2),
    ratioP99Median: round(median(ratios), 2),
    ratioP99Range: [Math.min(...ratios), Math.max(...ratios)],
    targetRatio: 5,
    perRound,
    // Not in the request any more: how long after the POST the baseline was written (the agent waits for it).
    baselineWrittenMs: stats(subs.flatMap((r) => r.baseline)),
  };
}

if (process.env.PLANGATE_BENCH_APPROVAL_CLIENT === "1") {
  const answer = (a: Answer) => process.send?.(a);
  process.on(
    "message",
    (ask: Ask) =>
      void measure(ask).then(
        (ms) => answer({ ms }),
        (e: unknown) => answer({ error: String(e) }),
      ),
  );
}
