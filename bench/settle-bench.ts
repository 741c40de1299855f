/**
 * An approval's time to settle (issue 43): from the decision (the real route handler, a signed-in reviewer's
 * cookie) until the session is idle, its lease let go, and its verification recorded. The agent (scripted) writes
 * one file after the approval and ends its turn, so the figure holds the baseline, one turn and the check. Four
 * workspaces of SOURCE_FILES committed or plain files: git and not, each with 15 and with 3,000 earlier sessions'
 * plan files under .plangate/plans (left untracked in git, as a fresh clone's plans are). Samples are interleaved
 * over the four, round by round; each figure is the median (beside it, when the baseline was written and when the
 * check was recorded), and the 15-plan workspace is the floor of the 3,000-plan one: the median over rounds of the
 * per-round ratio of medians (target: within 1.5x). The plan file each sample's session writes is removed after it settles, so
 * the counts hold.
 *
 * `reuse`: a second manifest of a plain workspace of 5,000 small files, with the first at hand (unchanged files
 * keep their hash, lstat only) against without (every file read), interleaved; beside the floor a reuse cannot go
 * under, a bare walk that lstats every file.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as decisionRoute from "../app/api/reviews/[id]/decision/route";
import type { Db } from "../lib/db/client";
import { sql } from "../lib/db/sql";
import { resetEnvCache } from "../lib/env";
import { diffManifests, takeManifest, type Manifest } from "../lib/verify/file-manifest";
import { personCookie } from "./lib/credential";
import { median, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";
import { waitingReview } from "./lib/waiting-review";

const ROUNDS = Number(process.env.BENCH_SETTLE_ROUNDS ?? 5);
const SAMPLES = Number(process.env.BENCH_SETTLE_SAMPLES ?? 5);
const SOURCE_FILES = Number(process.env.BENCH_SETTLE_FILES ?? 2000);
const PLAN_COUNTS = [15, 3000] as const;
const REUSE_FILES = 5000;
const PLAN = "# Plan: greeting\n\n1. Write the greeting in src/hello.ts\n";

type Kind = { git: boolean; plans: number; workspace: string };
type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SOURCE_FILES small files in folders of 100, and `plans` earlier plan files of about 1 KB each. */
function workspace(root: string, git: boolean, plans: number): string {
  const ws = path.join(root, `${git ? "git" : "plain"}-${plans}`);
  fs.mkdirSync(path.join(ws, "src"), { recursive: true });
  fs.writeFileSync(path.join(ws, "README.md"), "# Bench\n");
  for (let d = 0; d < SOURCE_FILES / 100; d++) {
    fs.mkdirSync(path.join(ws, "src", `m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++)
      fs.writeFileSync(path.join(ws, "src", `m${d}`, `f${f}.ts`), `export const v${f} = ${d};\n`);
  }
  if (git) {
    const run = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: ws, stdio: "pipe" });
    run("init", "-q");
    run("add", "-A");
    run("commit", "-qm", "init");
  }
  fs.mkdirSync(path.join(ws, ".plangate", "plans"), { recursive: true });
  const body = `# An earlier plan\n\n${"1. Change a file and test it, as the plan says.\n".repeat(20)}`;
  for (let i = 0; i < plans; i++) fs.writeFileSync(path.join(ws, ".plangate", "plans", `earlier-${i}.md`), body);
  return fs.realpathSync(ws);
}

/** A session in plan mode waiting on its plan review (the agent's next step writes src/hello.ts, then it ends). */
const openReview = (db: Db, ws: string) =>
  waitingReview(db, ws, [
    { toolCalls: [{ name: "exit_plan_mode", input: { plan: PLAN } }] },
    {
      toolCalls: [{ name: "write", input: { path: "src/hello.ts", content: `export const hi = "${Date.now()}";\n` } }],
    },
    { text: "Done." },
  ]);

type Phases = { baseline: number; verified: number; settled: number };

/** Until the session is idle, its lease let go, and its verification recorded; when each step was seen (ms). */
async function settled(db: Db, sessionId: string, start: number): Promise<Phases> {
  const run = await sql(db);
  const seen = { baseline: Number.NaN, verified: Number.NaN };
  for (let i = 0; i < 12_000; i++) {
    const [row] = await run.query<{ lease: string | null; status: string; tree: string | null; checks: number }>(
      'SELECT s."leaseOwner" AS "lease", s."status", (SELECT MAX(v."baselineTree") FROM "Plan" p JOIN "PlanVersion" v ON v."planId" = p."id" WHERE p."sessionId" = s."id") AS "tree", (SELECT COUNT(*) FROM "Verification" c WHERE c."sessionId" = s."id") AS "checks" FROM "Session" s WHERE s."id" = ?',
      [sessionId],
    );
    const now = performance.now() - start;
    if (row?.tree && Number.isNaN(seen.baseline)) seen.baseline = now;
    if (row && Number(row.checks) > 0 && Number.isNaN(seen.verified)) seen.verified = now;
    if (row && !row.lease && row.status === "idle" && Number(row.checks) > 0) return { ...seen, settled: now };
    await sleep(2);
  }
  throw new Error(`session ${sessionId} did not settle after its approval`);
}

/** One approval, timed until it settles. The plan file the session wrote is removed afterwards. */
async function sample(db: Db, kind: Kind, cookie: string): Promise<Phases> {
  const { sessionId, reviewId } = await openReview(db, kind.workspace);
  const url = `http://127.0.0.1/api/reviews/${reviewId}/decision`;
  const start = performance.now();
  const res = await (decisionRoute.POST as Handler)(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: "http://127.0.0.1" },
      body: JSON.stringify({ decision: "approve", mode: "acceptEdits" }),
    }),
    { params: Promise.resolve({ id: reviewId }) },
  );
  if (res.status !== 200) throw new Error(`the decision answered ${res.status}: ${await res.text()}`);
  const phases = await settled(db, sessionId, start);
  const plans = path.join(kind.workspace, ".plangate", "plans");
  for (const f of fs.readdirSync(plans)) if (!f.startsWith("earlier-")) fs.rmSync(path.join(plans, f));
  return phases;
}

/** What a manifest must do at the least: list every folder and lstat every file. */
async function bareWalk(dir: string): Promise<number> {
  let n = 0;
  for (const e of await fs.promises.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += await bareWalk(p);
    else {
      await fs.promises.lstat(p);
      n++;
    }
  }
  return n;
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function benchReuse(root: string) {
  const ws = path.join(root, "reuse");
  for (let d = 0; d < REUSE_FILES / 100; d++) {
    fs.mkdirSync(path.join(ws, `m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(ws, `m${d}`, `f${f}.ts`), `export const v${f} = ${d};\n`);
  }
  // Files written just now are "racy" (not older than a walk starting now) and read again: the workspace ages first.
  await sleep(2100);
  const first: Manifest = await takeManifest(ws);
  const ms = { reuse: [] as number[], full: [] as number[], walk: [] as number[] };
  let same = true;
  for (let r = 0; r < ROUNDS * 4; r++) {
    ms.full.push(await timed(() => takeManifest(ws)));
    ms.reuse.push(
      await timed(async () => {
        const second = await takeManifest(ws, undefined, [], first);
        same &&= diffManifests(first, second).length === 0 && Object.keys(second.files).length === REUSE_FILES;
      }),
    );
    ms.walk.push(await timed(() => bareWalk(ws)));
  }
  const full = median(ms.full);
  const reuse = median(ms.reuse);
  return {
    files: REUSE_FILES,
    // Nothing changed between the walks: with or without reuse, the second manifest matches the first.
    sameAsFirst: same,
    secondManifestMsP50: { withoutReuse: round(full, 1), withReuse: round(reuse, 1) },
    floorBareWalkMsP50: round(median(ms.walk), 1),
    speedup: round(full / reuse, 2),
  };
}

export async function benchSettle() {
  const t = tempDb("settle");
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-settle-")));
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    PLANGATE_ALLOW_SCRIPTED: "1",
    PLANGATE_WORKSPACE_ROOTS: root,
    PLANGATE_DATA_DIR: path.join(root, "data"),
  });
  resetEnvCache();
  (globalThis as { plangateDb?: unknown }).plangateDb = t.db;
  try {
    const kinds: Kind[] = [true, false].flatMap((git) =>
      PLAN_COUNTS.map((plans) => ({ git, plans, workspace: workspace(root, git, plans) })),
    );
    const cookie = await personCookie(t.db, root, "reviewer");
    // Warm every path (route modules, prepared statements, the sandbox) outside the figures.
    for (const k of kinds) await sample(t.db, k, cookie);
    const rounds: Phases[][][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const one = kinds.map(() => [] as Phases[]);
      for (let i = 0; i < SAMPLES; i++)
        for (const [j, k] of kinds.entries()) one[j]?.push(await sample(t.db, k, cookie));
      rounds.push(one);
      const p50s = one.map((xs) => round(median(xs.map((x) => x.settled)), 1));
      process.stderr.write(`  round ${r + 1}/${ROUNDS}: ${p50s.join(" / ")} ms\n`);
    }
    const settle = [true, false].map((git) => {
      const [small, big] = PLAN_COUNTS.map((plans) => kinds.findIndex((k) => k.git === git && k.plans === plans));
      const at = (one: Phases[][], j: number | undefined) => one[j ?? -1] ?? [];
      const p50 = (j: number | undefined, phase: keyof Phases) =>
        round(median(rounds.flatMap((one) => at(one, j).map((x) => x[phase]))), 1);
      const ratios = rounds.map(
        (one) => median(at(one, big).map((x) => x.settled)) / median(at(one, small).map((x) => x.settled)),
      );
      const figures = (j: number | undefined) => ({
        settledMsP50: p50(j, "settled"),
        baselineWrittenMsP50: p50(j, "baseline"),
        verifiedMsP50: p50(j, "verified"),
      });
      return {
        baseline: git ? "git tree" : "file manifest (no git)",
        plans15: figures(small),
        plans3000: figures(big),
        ratioMedian: round(median(ratios), 2),
        ratioRange: [round(Math.min(...ratios), 2), round(Math.max(...ratios), 2)],
        targetRatio: 1.5,
      };
    });
    return {
      name: "approval-settle-with-earlier-plans",
      sourceFiles: SOURCE_FILES,
      planFiles: PLAN_COUNTS,
      rounds: ROUNDS,
      samplesPerRound: SAMPLES,
      settle,
      reuse: await benchReuse(root),
    };
  } finally {
    await sleep(200);
    await t.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
