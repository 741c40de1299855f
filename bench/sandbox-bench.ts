/**
 * What the OS sandbox costs per command: `true` run 100 times through runCommand under bubblewrap (the
 * read-only profile every unasked command gets, and the writable one), interleaved with the same command
 * as a plain `bash -c`, reported as medians and as the ratio sandboxed / plain.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectSandbox } from "../lib/sandbox/detect-sandbox";
import { runCommand } from "../lib/sandbox/run-command";
import { median, round } from "./lib/stats";

const RUNS = 100;

export type SandboxBenchResult = {
  available: boolean;
  runs: number;
  plainMedianMs: number;
  readOnlyMedianMs: number;
  writeMedianMs: number;
  networkMedianMs: number | null;
  readOnlyRatio: number;
  writeRatio: number;
};

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function benchSandbox(): Promise<SandboxBenchResult> {
  const sandbox = detectSandbox();
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-sandbox-bench-")));
  const none = { available: false, bwrapPath: null };
  const run = (profile: { write: boolean; network: boolean }, box = sandbox) =>
    runCommand({ command: "true", cwd: ws, workspace: ws, profile, sandbox: box });
  const plain: number[] = [];
  const ro: number[] = [];
  const rw: number[] = [];
  const net: number[] = [];
  try {
    // Warm-up: the host view and the page cache.
    await run({ write: false, network: false });
    for (let i = 0; i < RUNS; i++) {
      plain.push(await timed(() => run({ write: true, network: false }, none)));
      if (!sandbox.available) continue;
      ro.push(await timed(() => run({ write: false, network: false })));
      rw.push(await timed(() => run({ write: true, network: false })));
      if (sandbox.slirpPath && i % 5 === 0) net.push(await timed(() => run({ write: true, network: true })));
    }
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
  const p = median(plain);
  return {
    available: sandbox.available,
    runs: RUNS,
    plainMedianMs: round(p),
    readOnlyMedianMs: round(median(ro)),
    writeMedianMs: round(median(rw)),
    networkMedianMs: net.length > 0 ? round(median(net)) : null,
    readOnlyRatio: round(median(ro) / p, 2),
    writeRatio: round(median(rw) / p, 2),
  };
}
