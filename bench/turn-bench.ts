/**
 * Harness overhead per step with the scripted model (a small read, persisted and streamed over SSE), and the
 * memory cost of sessions waiting on a permission reply (they should hold nothing: durable asks live in the log).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { driveSession } from "../lib/agent/drive-session";
import { stepMetrics } from "../lib/agent/run-model-step";
import { startSession } from "../lib/agent/start-session";
import { appendEvents } from "../lib/session/append-events";
import { subscribeEvents } from "../lib/session/bus";
import { streamSessionEvents } from "../lib/session/stream-events";
import { median, quantile, round } from "./lib/stats";
import { scriptedWorkspace } from "./lib/scripted-workspace";

// A typical turn (the default limit is 50 steps), and a long one to show how per-step cost grows with history.
const STEPS = 20;
const LONG_STEPS = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const WAITING = Number(process.env.BENCH_WAITING ?? 1000);

function setup(configFile?: string) {
  return scriptedWorkspace("turn", {
    env: { PLANGATE_MAX_STEPS: String(LONG_STEPS + 10) },
    ...(configFile ? { config: configFile } : {}),
  });
}

async function stepRun(steps = STEPS): Promise<{ steps: number[]; model: number[] }> {
  stepMetrics.modelMs.length = 0;
  const { t, root, dispose } = setup();
  const script = Array.from({ length: steps }, (_, i) => ({
    toolCalls: [{ name: "read", input: { path: "small.txt", offset: 1 + (i % 5) } }],
  }));
  const { session } = await startSession(t.db, {
    workspace: root,
    agent: "build",
    mode: "default",
    model: "scripted",
    script,
  });
  const controller = new AbortController();
  const sse = streamSessionEvents(t.db, session.id, 0, controller.signal).getReader();
  void (async () => {
    while (!(await sse.read()).done);
  })();
  const stamps: number[] = [];
  const unsubscribe = subscribeEvents(session.id, (events) => {
    if (events.some((e) => e.type === "tool.result")) stamps.push(performance.now());
  });
  await appendEvents(t.db, session.id, [
    { type: "message.user", payload: { text: "go" } },
    { type: "turn.started", payload: { turnId: "trn_bench" } },
  ]);
  stamps.push(performance.now());
  await driveSession(t.db, session.id);
  unsubscribe();
  controller.abort();
  await dispose();
  if (stamps.length !== steps + 1) throw new Error(`expected ${steps} steps, saw ${stamps.length - 1}`);
  return { steps: stamps.slice(1).map((s, i) => s - (stamps[i] as number)), model: [...stepMetrics.modelMs] };
}

export async function memoryRun(): Promise<{
  baselineMb: number;
  waitingMb: number;
  deltaMb: number;
  heapUsedDeltaMb: number;
  waiting: number;
  pendingAsks: number;
}> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const { t, root, dispose } = setup(JSON.stringify({ permission: { bash: { "*": "ask" } } }));
  // A command that writes: it asks a person in default mode (a read-only one like `echo hi` runs unasked in
  // the read-only sandbox, and nothing would wait). The count is checked below.
  const script = [
    { toolCalls: [{ name: "bash", input: { command: "touch made-by-the-agent.txt" } }] },
    { text: "done" },
  ];
  const start = async () => {
    const { session } = await startSession(t.db, {
      workspace: root,
      agent: "build",
      mode: "default",
      model: "scripted",
      script,
    });
    await appendEvents(t.db, session.id, [
      { type: "message.user", payload: { text: "go" } },
      { type: "turn.started", payload: { turnId: `trn_${session.id}` } },
    ]);
    await driveSession(t.db, session.id);
    return session.id;
  };
  // Baseline: the same number of sessions, run to the end instead of left waiting, so caches that only
  // depend on the database's size (SQLite's page cache) are warm in both figures.
  const done = async () => {
    const { session } = await startSession(t.db, {
      workspace: root,
      agent: "build",
      mode: "default",
      model: "scripted",
      script: [{ text: "done" }],
    });
    await appendEvents(t.db, session.id, [
      { type: "message.user", payload: { text: "go" } },
      { type: "turn.started", payload: { turnId: `trn_${session.id}` } },
    ]);
    await driveSession(t.db, session.id);
  };
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      gc?.();
      await new Promise((r) => setTimeout(r, 100));
    }
    return process.memoryUsage();
  };
  for (let i = 0; i < 50; i++) await start(); // warm every code path first
  for (let i = 0; i < WAITING; i++) await done();
  const before = await settle();
  for (let i = 0; i < WAITING; i++) await start();
  const after = await settle();
  const waiting = await t.db.session.count({ where: { status: "awaiting_permission" } });
  const asks = await t.db.permissionRequest.count({ where: { status: "pending" } });
  await dispose();
  if (waiting !== WAITING + 50 || asks !== WAITING + 50)
    throw new Error(
      `memory bench: ${waiting} sessions waiting with ${asks} pending asks, expected ${WAITING + 50}: the figure would measure nothing`,
    );
  const mb = (n: number) => round(n / 1024 / 1024, 1);
  // RSS is what the target names; V8 keeps freed pages, so the heap in use is reported beside it.
  return {
    baselineMb: mb(before.rss),
    waitingMb: mb(after.rss),
    deltaMb: mb(after.rss - before.rss),
    heapUsedDeltaMb: mb(after.heapUsed - before.heapUsed),
    waiting: waiting - 50,
    pendingAsks: asks - 50,
  };
}

export async function benchTurn() {
  const perStep: number[] = [];
  const medians: number[] = [];
  const model: number[] = [];
  const outside: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await stepRun();
    perStep.push(...run.steps);
    medians.push(median(run.steps));
    model.push(...run.model);
    // The step after model call i ends with result i: what is left is Plangate's own work.
    run.steps.forEach((s, k) => outside.push(s - (run.model[k] ?? 0)));
  }
  const sorted = [...perStep].sort((a, b) => a - b);
  const long = await stepRun(LONG_STEPS);
  // Memory is measured in a fresh process, so garbage from the runs above cannot blur the difference.
  const memoryRuns =
    process.env.BENCH_WAITING === "0"
      ? []
      : [1, 2, 3].map(
          () =>
            JSON.parse(
              execFileSync(
                process.execPath,
                [
                  "--expose-gc",
                  "--conditions=react-server",
                  "--import",
                  "tsx",
                  path.join(import.meta.dirname, "memory-child.ts"),
                ],
                { encoding: "utf8", maxBuffer: 1 << 20 },
              )
                .trim()
                .split("\n")
                .at(-1) ?? "{}",
            ) as Awaited<ReturnType<typeof memoryRun>>,
        );
  const memory = memoryRuns.length
    ? {
        ...memoryRuns[0],
        deltaMb: round(median(memoryRuns.map((m) => m.deltaMb)), 1),
        heapUsedDeltaMb: round(median(memoryRuns.map((m) => m.heapUsedDeltaMb)), 1),
        deltaMbPerRun: memoryRuns.map((m) => m.deltaMb),
      }
    : { baselineMb: 0, waitingMb: 0, deltaMb: 0, heapUsedDeltaMb: 0, waiting: 0, pendingAsks: 0 };
  return {
    name: "turn-harness",
    stepsPerRun: STEPS,
    runs: RUNS,
    stepMsMedian: round(median(perStep), 2),
    stepMsP99: round(quantile(sorted, 0.99), 2),
    stepMsMedianPerRun: medians.map((m) => round(m, 2)),
    modelCallMsMedian: round(median(model), 2),
    withoutModelCallMsMedian: round(median(outside), 2),
    withoutModelCallMsP99: round(
      quantile(
        [...outside].sort((a, b) => a - b),
        0.99,
      ),
      2,
    ),
    stepTargetMedianMs: 5,
    longTurn: {
      steps: LONG_STEPS,
      stepMsMedian: round(median(long.steps), 2),
      modelCallMsMedian: round(median(long.model), 2),
      lastTenStepsMsMedian: round(median(long.steps.slice(-10)), 2),
    },
    memory: { ...memory, targetDeltaMb: 20 },
  };
}
