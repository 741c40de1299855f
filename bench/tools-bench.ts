/**
 * Issue 41: what one call of the read and write tools costs (asks, then execute, as a turn runs them) with the real
 * sandbox on this machine, warm (the session's worker running) and cold (a session's first call). Run beside the
 * commit before the worker with `npx tsx bench/compare-commits.ts <base checkout> 5 tools`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resetEnvCache } from "../lib/env";
import { detectSandbox } from "../lib/sandbox/detect-sandbox";
import { readTool } from "../lib/tools/read";
import type { ToolContext } from "../lib/tools/types";
import { writeTool } from "../lib/tools/write";
import { median, quantile, round } from "./lib/stats";

const CALLS = Number(process.env.BENCH_TOOL_CALLS ?? 300);
const COLD = Number(process.env.BENCH_TOOL_COLD ?? 10);

export async function benchTools() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-tools-")));
  const ws = path.join(dir, "ws");
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, "small.txt"), "hello\n".repeat(20));
  Object.assign(process.env, { PLANGATE_DATA_DIR: path.join(dir, "data"), PLANGATE_WORKSPACE_ROOTS: dir });
  resetEnvCache();
  const sandbox = detectSandbox();
  let n = 0;
  const ctx = (sessionId: string): ToolContext => ({
    sessionId,
    workspace: ws,
    callId: `bench-${++n}`,
    mode: "default",
    readOnly: false,
    planFile: null,
    sandbox,
    signal: new AbortController().signal,
  });
  const read = async (sessionId: string) => {
    const c = ctx(sessionId);
    const start = performance.now();
    await readTool.asks({ path: "small.txt", offset: 1 + (n % 5) }, c);
    await readTool.execute({ path: "small.txt", offset: 1 + (n % 5) }, c);
    return performance.now() - start;
  };
  const write = async (sessionId: string) => {
    const c = ctx(sessionId);
    const input = { path: `out/f${n % 10}.txt`, content: `line ${n}\n`.repeat(20) };
    const start = performance.now();
    await writeTool.asks(input, c);
    await writeTool.execute(input, c);
    return performance.now() - start;
  };
  try {
    const cold: number[] = [];
    for (let i = 0; i < COLD; i++) cold.push(await read(`cold-${i}`));
    for (let i = 0; i < 20; i++) await read("warm");
    const reads: number[] = [];
    const writes: number[] = [];
    // Interleaved, so a noisy moment on the machine hits both.
    for (let i = 0; i < CALLS; i++) {
      reads.push(await read("warm"));
      writes.push(await write("warm"));
    }
    const p = (xs: number[], q: number) =>
      round(
        quantile(
          [...xs].sort((a, b) => a - b),
          q,
        ),
        3,
      );
    return {
      name: "file-tools",
      sandboxed: sandbox.available,
      calls: CALLS,
      readMsP50: round(median(reads), 3),
      readMsP99: p(reads, 0.99),
      writeMsP50: round(median(writes), 3),
      writeMsP99: p(writes, 0.99),
      coldReadMsMedian: round(median(cold), 2),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
