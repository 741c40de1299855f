/**
 * Throughput and latency of the permission engine's public cached path on a
 * realistic merged ruleset. Each pattern evaluation counts as one decision;
 * one call evaluates 10 patterns, as a bash call with chained commands does.
 */
import { pathToFileURL } from "node:url";
import { evaluate, fromConfig, merge, nativeAgents, type Action, type Ruleset } from "../lib/permission/index";

export type PermissionBenchResult = {
  name: string;
  decisionsPerSecond: number;
  p99Micros: number;
  rules: number;
  patternsPerCall: number;
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

const TOOLS = ["git", "npm", "pnpm", "yarn", "docker", "kubectl", "cargo", "go", "python", "make", "ls", "cat", "rm", "curl", "gh"];
const SUBS = ["log", "status", "diff", "run", "install", "build", "test", "push", "pull", "exec", "apply", "get", "show"];
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
      key = shape < 0.6 ? `${pick(r, DIRS)}/*` : shape < 0.9 ? `${pick(r, DIRS)}/*.${pick(r, EXTS)}` : `*.${pick(r, EXTS)}`;
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

export async function benchPermission(opts: { seconds?: number } = {}): Promise<PermissionBenchResult> {
  const seconds = opts.seconds ?? 3;
  const ruleset = benchRuleset();
  const calls = makeCalls(Number(process.env.BENCH_CALLS ?? POOL_CALLS));
  let sink = 0;

  for (let i = 0; i < 200_000; i++) sink += runCall(calls[i % calls.length]!, ruleset);

  // Throughput without per-call timers (they would dominate); the median
  // round keeps a noisy neighbour on a shared VM from skewing the figure.
  const roundNs = BigInt(Math.round((seconds * 0.7 * 1e9) / ROUNDS));
  const rates: number[] = [];
  let next = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let done = 0;
    const t0 = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < roundNs) {
      for (let k = 0; k < 256; k++) {
        sink += runCall(calls[next]!, ruleset);
        next = next + 1 === calls.length ? 0 : next + 1;
      }
      done += 256;
      elapsed = process.hrtime.bigint() - t0;
    }
    rates.push((done * PATTERNS_PER_CALL) / (Number(elapsed) / 1e9));
  }

  // Latency: one sample per call.
  const samples: number[] = [];
  const latencyNs = BigInt(Math.round(seconds * 0.3 * 1e9));
  const l0 = process.hrtime.bigint();
  for (let i = 0; process.hrtime.bigint() - l0 < latencyNs; i++) {
    const s = process.hrtime.bigint();
    sink += runCall(calls[i % calls.length]!, ruleset);
    samples.push(Number(process.hrtime.bigint() - s));
  }
  samples.sort((a, b) => a - b);
  const p99 = samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))] ?? 0;

  if (sink < 0) console.log(sink); // keep the work observable to the optimiser
  return {
    name: "permission.evaluate",
    decisionsPerSecond: Math.round(median(rates)),
    p99Micros: Math.round(p99 / 10) / 100,
    rules: ruleset.length,
    patternsPerCall: PATTERNS_PER_CALL,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // No top-level await: a CommonJS importer of this file would fail on it.
  void benchPermission().then((result) => console.log(JSON.stringify(result, null, 2)));
}
