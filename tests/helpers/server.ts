import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { migrateDatabase } from "../../lib/db/migrate";
import { freshDatabaseUrl } from "./db";
import { freePort } from "../../scripts/free-port";
import { waitFor } from "./poll";
export { freePort };

const root = path.resolve(import.meta.dirname, "../..");

/** log: everything the server printed so far (its start log included). */
export type Server = {
  url: string;
  proc: ChildProcess;
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
  log: () => string;
};

/** Starts the app the way `npm start` does (migrate, build when stale, next start) in its own process group. */
export async function startServer(env: Record<string, string>, port: number): Promise<Server> {
  const proc = spawn(process.execPath, ["scripts/serve.mjs"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  proc.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(proc, url, () => log, 280_000);
  const killGroup = async (signal: NodeJS.Signals) => {
    try {
      process.kill(-(proc.pid as number), signal);
    } catch {
      return;
    }
    await new Promise((r) => (proc.exitCode !== null || proc.signalCode !== null ? r(null) : proc.once("exit", r)));
  };
  return { url, proc, kill9: () => killGroup("SIGKILL"), stop: () => killGroup("SIGTERM"), log: () => log };
}

/** The operator's credential (the suites run with PLANGATE_TOKEN set), for requests a test makes itself. */
export function operatorHeaders(): Record<string, string> {
  const token = process.env.PLANGATE_TOKEN;
  if (!token) throw new Error("PLANGATE_TOKEN is not set: vitest.config.ts sets it for every suite");
  return { authorization: `Bearer ${token}` };
}

export async function http(url: string, method: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...operatorHeaders() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Until the server a process runs answers /api/health; fails at once, with its output, if the process exits. */
export function untilHealthy(proc: ChildProcess, url: string, log: () => string, ms: number): Promise<true> {
  return waitFor(
    () => `the server at ${url} to start:\n${log().slice(-3000)}`,
    async () => {
      if (proc.exitCode !== null) throw new Error(`the server exited before it started:\n${log().slice(-3000)}`);
      return (await fetch(`${url}/api/health`).catch(() => null))?.ok === true;
    },
    ms,
    250,
  );
}

/**
 * A real server for one test file: a data folder with a workspace `ws` (filled by `prepare`), migrated and
 * started before the tests, stopped and removed after them. `server()` is the running server.
 */
export function realServerFixture(
  name: string,
  extraEnv: Record<string, string> = {},
  prepare: (workspace: string) => void = () => undefined,
) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `plangate-${name}-`));
  const workspace = path.join(root, "ws");
  fs.mkdirSync(workspace, { recursive: true });
  prepare(workspace);
  const env = {
    DATABASE_URL: freshDatabaseUrl(root).url,
    PLANGATE_DATA_DIR: root,
    PLANGATE_WORKSPACE_ROOTS: root,
    PLANGATE_ALLOW_SCRIPTED: "1",
    ...extraEnv,
  };
  let running: Server | undefined;
  beforeAll(async () => {
    await migrateDatabase(env.DATABASE_URL, { quiet: true });
    running = await startServer(env, await freePort());
  }, 300_000);
  afterAll(async () => {
    await running?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });
  return {
    workspace,
    /** The server's database and data folder (for a script run against the same install: npm run user). */
    env,
    server: (): Server => {
      if (!running) throw new Error("the server is not running");
      return running;
    },
  };
}
