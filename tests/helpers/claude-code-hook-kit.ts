// What the suites of `plangate connect claude-code` and its hook share (tests/integration/claude-code-hook*.test.ts):
// a real server with a known token, the CLI run as a person or Claude Code would (its own XDG config folder, no
// token in the environment), and requests as the operator.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { realServerFixture } from "./server";

export const HOOK_TOKEN = "hook-test-token-0123456789";
const repo = path.resolve(import.meta.dirname, "../..");
export const PLANGATE_BIN = path.join(repo, "bin", "plangate.mjs");

/** Call at a suite's top level: the server starts before its tests and stops after them. */
export function claudeCodeHookKit(name: string) {
  const fixture = realServerFixture(name, { PLANGATE_TOKEN: HOOK_TOKEN });
  const config = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-xdg-"));

  function plangate(
    args: string[],
    opts: { cwd?: string; stdin?: string } = {},
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [PLANGATE_BIN, ...args], {
      cwd: opts.cwd ?? repo,
      env: { ...process.env, XDG_CONFIG_HOME: config, PLANGATE_TOKEN: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? "");
    return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
  }

  const authed = async (url: string, method: string, body?: unknown) => {
    const res = await fetch(url, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${HOOK_TOKEN}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  return { fixture, config, plangate, authed };
}
