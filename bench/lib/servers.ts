/**
 * Real servers for benches (the app as `npm start` runs it: scripts/serve.mjs in its own process group) and the
 * HTTP clients that drive them from the bench process: JSON requests on a keep-alive agent, SSE subscribers.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { needsBuild } from "../../scripts/needs-build";
import { freePort } from "../../scripts/free-port";
import { OPERATOR_TOKEN, operatorHeaders } from "./credential";
import { type Subscriber, subscribe as sseSubscribe } from "./sse-wire";
export { freePort };

const root = path.resolve(import.meta.dirname, "../..");
// The environment the bench was started with: suites that ran earlier in the process set their own variables
// (DATABASE_URL, PLANGATE_MAX_STEPS…), which must not reach a server (bench/run.ts imports this module first).
const launchEnv = { ...process.env };

export type AppServer = { port: number; proc: ChildProcess; log: () => string; stop: () => Promise<void> };

/** One production build before any server starts, so that servers started together never build at once. */
export function buildIfStale(): boolean {
  if (!needsBuild(root)) return false;
  process.stderr.write("  building (sources changed since the last build)…\n");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...launchEnv, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("next build failed");
  return true;
}

/** Starts scripts/serve.mjs (migrate, build when stale, next start) and waits for /api/health; the operator token is OPERATOR_TOKEN. */
export async function startAppServer(env: Record<string, string>): Promise<AppServer> {
  const port = await freePort();
  const proc = spawn(process.execPath, ["scripts/serve.mjs"], {
    cwd: root,
    env: {
      ...launchEnv,
      PLANGATE_TOKEN: OPERATOR_TOKEN,
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-20_000));
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  const deadline = Date.now() + 300_000;
  for (;;) {
    const status = await request(port, "GET", "/api/health").then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${log.slice(-3000)}`);
    await sleep(250);
  }
  const stop = async () => {
    try {
      process.kill(-(proc.pid as number), "SIGTERM");
    } catch {
      return;
    }
    await new Promise((r) => (proc.exitCode !== null || proc.signalCode !== null ? r(null) : proc.once("exit", r)));
  };
  return { port, proc, log: () => log, stop };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Keep-alive, as a browser or a load balancer holds its connections; enough sockets for every concurrent client.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export type Answer = { status: number; body: any; headers: http.IncomingHttpHeaders };

/** One request with exactly these headers (no credential unless given), on the keep-alive agent. */
export function send(
  port: number,
  method: string,
  urlPath: string,
  o: { headers?: http.OutgoingHttpHeaders; body?: unknown } = {},
): Promise<Answer> {
  const data = o.body === undefined ? undefined : JSON.stringify(o.body);
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = {
      ...o.headers,
      ...(data === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(data) }),
    };
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, method, agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        const answer = { status: res.statusCode ?? 0, headers: res.headers };
        try {
          resolve({ ...answer, body: text ? JSON.parse(text) : null });
        } catch {
          resolve({ ...answer, body: text });
        }
      });
    });
    req.on("socket", (s) => s.setNoDelay(true));
    req.on("error", reject);
    req.end(data);
  });
}

/** A request as the operator's scripts send it (Authorization: Bearer OPERATOR_TOKEN). */
export function request(port: number, method: string, urlPath: string, body?: unknown): Promise<Answer> {
  return send(port, method, urlPath, { headers: operatorHeaders(), body });
}

export type { Subscriber };

/** An SSE client as the operator's scripts open one (sse-wire.ts). */
export const subscribe = (port: number, urlPath: string): Promise<Subscriber> =>
  sseSubscribe(port, urlPath, operatorHeaders());
