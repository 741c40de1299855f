/**
 * How fast an agent's hook starts (issue 29): a whole `plangate hook <agent> --help` process from the bundled CLI
 * (dist/cli/plangate.mjs), interleaved run by run with a bare `node -e 0` (the floor: starting node at all).
 * Target: the hook within 2x of the floor, as the median over rounds of each round's ratio of medians. The MCP
 * server's start is shown beside it (it loads the MCP SDK, which the hooks never do).
 */
import { spawnSync } from "node:child_process";
import { buildBundles, bundlesNeedBuild, CLI_BUNDLE } from "../scripts/build-bundles";
import { median, round } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 5);
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 20);

function timed(args: string[], expectStatus: number, call?: { input: string; env: Record<string, string> }): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, {
    stdio: [call ? "pipe" : "ignore", "pipe", "pipe"],
    input: call?.input,
    env: { ...process.env, ...call?.env },
  });
  const ms = performance.now() - t0;
  if (r.status !== expectStatus)
    throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr.toString().slice(0, 300)}`);
  return ms;
}

export async function benchCli() {
  if (bundlesNeedBuild()) await buildBundles();
  const kinds: Record<string, () => number> = {
    bareNode: () => timed(["-e", "0"], 0),
    claudeHook: () => timed([CLI_BUNDLE, "hook", "claude-code", "--help"], 0),
    geminiHook: () => timed([CLI_BUNDLE, "hook", "gemini", "--help"], 0),
    codexHook: () => timed([CLI_BUNDLE, "hook", "codex", "--help"], 0),
    piHook: () => timed([CLI_BUNDLE, "hook", "pi", "--help"], 0),
    droidHook: () => timed([CLI_BUNDLE, "hook", "droid", "--help"], 0),
    copilotHook: () => timed([CLI_BUNDLE, "hook", "copilot", "--help"], 0),
    qwenHook: () => timed([CLI_BUNDLE, "hook", "qwen", "--help"], 0),
    kiloHook: () => timed([CLI_BUNDLE, "hook", "kilo", "--help"], 0),
    clineHook: () => timed([CLI_BUNDLE, "hook", "cline", "--help"], 0),
    ampHook: () => timed([CLI_BUNDLE, "hook", "amp", "--help"], 0),
    // Amp runs its delegate before every call, reads among them: a whole decision, not --help.
    ampDelegate: () =>
      timed([CLI_BUNDLE, "hook", "amp-delegate"], 0, {
        input: JSON.stringify({ path: "README.md" }),
        env: { AGENT: "amp", AGENT_TOOL_NAME: "Read", AMP_THREAD_ID: "T-bench" },
      }),
    mcpServer: () => timed([CLI_BUNDLE, "mcp", "--help"], 0),
  };
  for (const run of Object.values(kinds)) run();
  const rounds: Record<string, number[]>[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const one: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    for (let i = 0; i < RUNS; i++) for (const [k, run] of Object.entries(kinds)) one[k]?.push(run());
    rounds.push(one);
  }
  const ratio = (k: string) => {
    const per = rounds.map((r) => median(r[k] ?? []) / median(r.bareNode ?? []));
    return { median: round(median(per), 2), range: [round(Math.min(...per), 2), round(Math.max(...per), 2)] };
  };
  const p50 = (k: string) => round(median(rounds.map((r) => median(r[k] ?? []))), 1);
  return {
    runs: ROUNDS * RUNS,
    p50Ms: Object.fromEntries(Object.keys(kinds).map((k) => [k, p50(k)])),
    toBareNode: {
      claudeHook: ratio("claudeHook"),
      geminiHook: ratio("geminiHook"),
      codexHook: ratio("codexHook"),
      piHook: ratio("piHook"),
      droidHook: ratio("droidHook"),
      copilotHook: ratio("copilotHook"),
      qwenHook: ratio("qwenHook"),
      kiloHook: ratio("kiloHook"),
      clineHook: ratio("clineHook"),
      ampHook: ratio("ampHook"),
      ampDelegate: ratio("ampDelegate"),
      mcpServer: ratio("mcpServer"),
    },
    targetRatio: 2,
  };
}
