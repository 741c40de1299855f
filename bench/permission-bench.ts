/**
 * Throughput and latency of the permission gate on a realistic 200-rule ruleset: judgeCall exactly as
 * run-tool-call calls it (agent rules, then the session's grants read afresh when something would ask, the
 * mode), interleaved round by round with the engine's cached evaluate alone (the floor). Each pattern judged
 * counts as one decision; one call has 10 patterns, as a bash call with chained commands does.
 */
import { pathToFileURL } from "node:url";
import { judgeCall } from "../lib/permission/judge-call";
import { evaluate, fromConfig, merge, nativeAgents, type Action, type Ruleset } from "../lib/permission/index";
import { grantRuleset, type GrantView } from "../lib/session/grant-store";
import type { PermissionAsk } from "../lib/tools/types";

export type PermissionBenchResult = {
  name: string;
  decisionsPerSecond: number;
  p99Micros: number;
  rules: number;
  patternsPerCall: number;
  gate: {
    decisionsPerSecond: number;
    targetDecisionsPerSecond: number;
    /** evaluate rate / gate rate per round: how much slower the gate path is than the cached engine. */
    slowdownMedian: number;
    slowdownRange: [number, number];
    targetSlowdown: number;
    p99Micros: number;
    grants: number;
  };
};

const PATTERNS_PER_CALL = 10;

/** Deterministic PRNG so runs are comparable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = [
  "git",
  "npm",
  "pnpm",
  "yarn",
  "docker",
  "kubectl",
  "cargo",
  "go",
  "python",
  "make",
  "ls",
  "cat",
  "rm",
  "curl",
  "gh",
];
const SUBS = [
  "log",
  "status",
  "diff",
  "run",
  "install",
  "build",
  "test",
  "push",
  "pull",
  "exec",
  "apply",
  "get",
  "show",
];
const DIRS = ["src", "lib", "app", "test", "docs", "scripts", "packages/core", "packages/ui", "config", ".github"];
const EXTS = ["ts", "tsx", "md", "json", "env", "yml", "css"];
const ACTIONS: readonly Action[] = ["allow", "deny", "ask"];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

function userConfig(r: () => number, count: number): Record<string, Record<string, Action>> {
  const bash: Record<string, Action> = {};
  const edit: Record<string, Action> = {};
  const read: Record<string, Action> = {};
  let n = 0;
  while (n < count) {
    const kind = r();
    const action = pick(r, ACTIONS);
    let key: string;
    let target: Record<string, Action>;
    if (kind < 0.6) {
      target = bash;
      const tool = pick(r, TOOLS);
      const shape = r();
      key = shape < 0.5 ? `${tool} ${pick(r, SUBS)} *` : shape < 0.8 ? `${tool} *` : `${tool} ${pick(r, SUBS)} --*`;
    } else if (kind < 0.85) {
      target = edit;
      const shape = r();
      key =
        shape < 0.6 ? `${pick(r, DIRS)}/*` : shape < 0.9 ? `${pick(r, DIRS)}/*.${pick(r, EXTS)}` : `*.${pick(r, EXTS)}`;
    } else {
      target = read;
      key = r() < 0.5 ? `${pick(r, DIRS)}/*` : `*/${pick(r, ["secrets", "private", "fixtures"])}/*`;
    }
    if (key in target) continue;
    target[key] = action;
    n++;
  }
  return { bash, edit, read };
}

export function benchRuleset(): Ruleset {
  const r = rng(42);
  const plan = nativeAgents({ plansDir: ".plangate/plans", home: "/home/dev" }).plan.permission;
  const user = fromConfig(userConfig(r, 200 - plan.length), { home: "/home/dev" });
  return merge(plan, user);
}

export type Call = { permission: string; patterns: string[] };

export function makeCalls(count: number): Call[] {
  const r = rng(7);
  const calls: Call[] = [];
  for (let i = 0; i < count; i++) {
    const kind = r();
    const patterns: string[] = [];
    for (let j = 0; j < PATTERNS_PER_CALL; j++) {
      const n = i * PATTERNS_PER_CALL + j;
      if (kind < 0.6) {
        const tool = r() < 0.9 ? pick(r, TOOLS) : `tool${n % 97}`;
        patterns.push(`${tool} ${pick(r, SUBS)} -n ${n} --flag=${Math.floor(r() * 1e6)}`);
      } else {
        const ext = pick(r, EXTS);
        patterns.push(`${pick(r, DIRS)}/mod${n % 1013}/file-${Math.floor(r() * 1e6)}.${ext}`);
      }
    }
    const permission = kind < 0.6 ? "bash" : kind < 0.85 ? "edit" : "read";
    calls.push({ permission, patterns });
  }
  return calls;
}

function runCall(call: Call, ruleset: Ruleset): number {
  let allowed = 0;
  for (const p of call.patterns) if (evaluate(call.permission, p, ruleset) === "allow") allowed++;
  return allowed;
}

// A session with a few saved "always" replies, as rows read from the database on every call that would ask.
const GRANT_ROWS: Pick<GrantView, "permission" | "pattern" | "exact">[] = [
  { permission: "bash", pattern: "npm run build", exact: true },
  { permission: "bash", pattern: "git status *", exact: false },
  { permission: "edit", pattern: "src/generated/*", exact: false },
  { permission: "bash", pattern: "make test", exact: true },
  { permission: "read", pattern: "docs/*", exact: false },
];
const GATES = { autoGateOpen: false, bypassEnabled: false };
const NOT_ONCE: ReadonlySet<string> = new Set();

function judge(asks: PermissionAsk[], ruleset: Ruleset, grants: Ruleset) {
  return judgeCall({
    asks,
    agentRules: ruleset,
    grantRules: grants,
    mode: "default",
    gates: GATES,
    allowedOnce: NOT_ONCE,
  });
}

/**
 * The gate as run-tool-call.ts drives it: no grants first; the session's grants (fresh rows) only if it would
 * ask. No closure per call: under tsx every function expression made at run time also gets its name set, a
 * cost the production build does not have.
 */
function gateCall(call: Call, ruleset: Ruleset): number {
  const asks = [{ permission: call.permission, patterns: call.patterns, always: call.patterns, readOnly: false }];
  let judgement = judge(asks, ruleset, grantRuleset([]));
  if (judgement.kind === "ask") judgement = judge(asks, ruleset, grantRuleset(GRANT_ROWS.map((g) => ({ ...g }))));
  return judgement.kind === "allow" ? 1 : 0;
}

/**
 * 1,024 calls = 10,240 distinct pattern strings (~650 kB). The engine caches
 * no results, so every decision does the full work; the pool is kept small
 * enough to stay in CPU cache the way a freshly parsed tool call is. A much
 * bigger pool mostly measures memory latency (4,096 calls: about a third
 * slower on the 2-core dev VM). BENCH_CALLS overrides it.
 */
const POOL_CALLS = 1_024;
const ROUNDS = 15;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

type Side = (call: Call, ruleset: Ruleset) => number;

/** Decisions per second of one side for one round, without per-call timers (they would dominate). */
function rate(
  side: Side,
  calls: Call[],
  ruleset: Ruleset,
  roundNs: bigint,
  start: number,
): { rate: number; next: number; sink: number } {
  let done = 0;
  let sink = 0;
  let next = start;
  const t0 = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < roundNs) {
    for (let k = 0; k < 256; k++) {
      sink += side(calls[next]!, ruleset);
      next = next + 1 === calls.length ? 0 : next + 1;
    }
    done += 256;
    elapsed = process.hrtime.bigint() - t0;
  }
  return { rate: (done * PATTERNS_PER_CALL) / (Number(elapsed) / 1e9), next, sink };
}

function p99Micros(side: Side, calls: Call[], ruleset: Ruleset, ns: bigint): { p99: number; sink: number } {
  const samples: number[] = [];
  let sink = 0;
  const l0 = process.hrtime.bigint();
  for (let i = 0; process.hrtime.bigint() - l0 < ns; i++) {
    const s = process.hrtime.bigint();
    sink += side(calls[i % calls.length]!, ruleset);
    samples.push(Number(process.hrtime.bigint() - s));
  }
  samples.sort((a, b) => a - b);
  const p99 = samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))] ?? 0;
  return { p99: Math.round(p99 / 10) / 100, sink };
}

export async function benchPermission(opts: { seconds?: number } = {}): Promise<PermissionBenchResult> {
  const seconds = opts.seconds ?? 10;
  const ruleset = benchRuleset();
  const calls = makeCalls(Number(process.env.BENCH_CALLS ?? POOL_CALLS));
  let sink = 0;

  for (let i = 0; i < 200_000; i++)
    sink += runCall(calls[i % calls.length]!, ruleset) + gateCall(calls[i % calls.length]!, ruleset);

  // The two sides alternate round by round, so a noisy neighbour on a shared VM hits both alike; the median
  // round and the median ratio are reported.
  const roundNs = BigInt(Math.round((seconds * 0.35 * 1e9) / ROUNDS));
  const floor: number[] = [];
  const gate: number[] = [];
  const slowdown: number[] = [];
  let next = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const a = rate(runCall, calls, ruleset, roundNs, next);
    const b = rate(gateCall, calls, ruleset, roundNs, a.next);
    next = b.next;
    sink += a.sink + b.sink;
    floor.push(a.rate);
    gate.push(b.rate);
    slowdown.push(a.rate / b.rate);
  }
  const latencyNs = BigInt(Math.round(seconds * 0.15 * 1e9));
  const floorLatency = p99Micros(runCall, calls, ruleset, latencyNs);
  const gateLatency = p99Micros(gateCall, calls, ruleset, latencyNs);
  sink += floorLatency.sink + gateLatency.sink;

  if (sink < 0) console.log(sink); // keep the work observable to the optimiser
  const round2 = (n: number) => Math.round(n * 100) / 100;
  return {
    name: "permission.evaluate",
    decisionsPerSecond: Math.round(median(floor)),
    p99Micros: floorLatency.p99,
    rules: ruleset.length,
    patternsPerCall: PATTERNS_PER_CALL,
    gate: {
      decisionsPerSecond: Math.round(median(gate)),
      targetDecisionsPerSecond: 1_000_000,
      slowdownMedian: round2(median(slowdown)),
      slowdownRange: [round2(Math.min(...slowdown)), round2(Math.max(...slowdown))],
      targetSlowdown: 2,
      p99Micros: gateLatency.p99,
      grants: GRANT_ROWS.length,
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // No top-level await: a CommonJS importer of this file would fail on it.
  void benchPermission().then((result) => console.log(JSON.stringify(result, null, 2)));
}
