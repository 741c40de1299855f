import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectSandbox } from "../../lib/sandbox/detect-sandbox";
import { sandboxForSuite } from "../helpers/sandbox";

const runner = path.resolve(import.meta.dirname, "../helpers/orphan-runner.ts");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-lifeline-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const available = sandboxForSuite().available;

/** Runs `command` from a process that is killed -9 `delayMs` after spawning it; resolves when that process is gone. */
function orphan(workspace: string, command: string, delayMs: number, sandboxed: boolean): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      runner,
      workspace,
      command,
      String(delayMs),
      sandboxed ? "1" : "0",
    ],
    { stdio: "ignore" },
  );
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

// A server killed mid-step has its call reported to the model as interrupted, never run again: the command it
// had started must not take effect afterwards either, however soon after the spawn the server died.
describe.each([
  ["in the sandbox", true],
  ["without the sandbox", false],
])("a command whose server dies %s", (_name, sandboxed) => {
  it.skipIf(sandboxed && !available)(
    "never takes effect once the server is gone, whenever it died",
    async () => {
      const delays = [0, 1, 2, 5, 20, 200];
      const workspaces = delays.map((d) => fs.mkdtempSync(path.join(root, `d${d}-`)));
      // The write comes 0.5 s after the start: a command that outlived its server would have made it by the check.
      await Promise.all(
        delays.map((d, i) => orphan(workspaces[i] as string, "sleep 0.5; echo ran >> out.txt", d, sandboxed)),
      );
      await sleep(1500);
      for (const w of workspaces) expect(fs.existsSync(path.join(w, "out.txt")), w).toBe(false);
    },
    30_000,
  );
});

describe.skipIf(!available)("a sandbox that fails to set itself up", () => {
  it("is tried once more (it ran nothing); a command that started and failed, whatever it prints, never is", async () => {
    const { runCommand } = await import("../../lib/sandbox/run-command");
    const real = detectSandbox();
    const dir = fs.mkdtempSync(path.join(root, "flaky-"));
    const marker = path.join(dir, "failed-once");
    // bwrap failing before the sandbox exists, the first time only (as "loopback: Failed RTM_NEWADDR" did).
    const flaky = path.join(dir, "bwrap");
    fs.writeFileSync(
      flaky,
      `#!/bin/sh\nif [ ! -e ${marker} ]; then : > ${marker}; echo "bwrap: loopback: Failed RTM_NEWADDR: No buffer space available" >&2; exit 1; fi\nexec ${real.bwrapPath} "$@"\n`,
      { mode: 0o755 },
    );
    const sandbox = { ...real, bwrapPath: flaky };
    const ws = fs.mkdtempSync(path.join(root, "ws-"));
    const ok = await runCommand({
      command: "echo ran >> count.txt",
      cwd: ws,
      workspace: ws,
      sandbox,
      profile: { write: true, network: false },
    });
    expect(ok.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(ws, "count.txt"), "utf8")).toBe("ran\n");
    // Started, printed what a setup failure prints, failed: not run again.
    const failed = await runCommand({
      command: "echo ran >> twice.txt; echo 'bwrap: loopback: Failed RTM_NEWADDR' >&2; exit 1",
      cwd: ws,
      workspace: ws,
      sandbox: real,
      profile: { write: true, network: false },
    });
    expect(failed.exitCode).toBe(1);
    expect(fs.readFileSync(path.join(ws, "twice.txt"), "utf8")).toBe("ran\n");
  });
});
