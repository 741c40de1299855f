import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../helpers/poll";
import { freePort, operatorHeaders, startServer, type Server } from "../helpers/server";

// Issue 42: a plain install's data folder holds its database (PLANGATE_DATA_DIR, no DATABASE_URL), the first start
// says where it is and prints the setup link on localhost, and SIGTERM stops the server within 5 s though browser
// tabs hold live streams (SSE) open.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-lifecycle-"));
const loadedFile = path.join(dataDir, "loaded-modules.json");
let server: Server;
let port: number;
beforeAll(async () => {
  if (process.env.PLANGATE_TEST_DB === "postgres") return;
  port = await freePort();
  server = await startServer(
    {
      PLANGATE_DATA_DIR: dataDir,
      DATABASE_URL: "",
      PLANGATE_WORKSPACE_ROOTS: path.join(dataDir, "workspaces"),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${path.resolve("tests/helpers/loaded-modules.cjs")}`,
      LOADED_MODULES_FILE: loadedFile,
    },
    port,
  );
}, 300_000);
afterAll(async () => {
  await server?.kill9();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const exited = (server: Server) =>
  new Promise<void>((resolve) =>
    server.proc.exitCode !== null || server.proc.signalCode !== null
      ? resolve()
      : server.proc.once("exit", () => resolve()),
  );

// SQLite's file in the data folder is what is under test (the PostgreSQL project would only start the same server).
describe.skipIf(process.env.PLANGATE_TEST_DB === "postgres")("a server started on a data folder", () => {
  it("keeps its database there, says so, and prints the setup link on localhost", () => {
    const db = path.join(fs.realpathSync(dataDir), "plangate.db");
    expect(fs.existsSync(db)).toBe(true);
    expect(server.log()).toContain(`database ready: ${db}`);
    expect(server.log()).toMatch(new RegExp(`http://localhost:${port}/link/[A-Za-z0-9_-]+`));
  });

  // Issue 43: npm start's wrappers (tsx and its esbuild service beside next start) held 225–285 MB while serving.
  it("serves as one process: nothing of the prepare step (tsx, esbuild) is left once it answers", () => {
    const group = execFileSync("ps", ["-o", "pid=,args=", "-g", String(server.proc.pid)], { encoding: "utf8" })
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    expect(group, group.join("\n")).toHaveLength(1);
    expect(group[0]).toMatch(new RegExp(`^${server.proc.pid} `));
    expect(group.join("\n")).not.toMatch(/tsx|esbuild|start\.ts/);
  });

  // Issue 43: idle, the server held 2.4x an empty `next start`: every route preloaded, the SWC compiler loaded to
  // read a TypeScript next.config, better-auth and the agent's code loaded by the health check and the scheduler.
  it("holds only what it has served: no compiler, sign-in library or agent code after health checks", async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    process.kill(server.proc.pid as number, "SIGUSR2");
    const loaded = await waitFor("the loaded modules", () =>
      fs.existsSync(loadedFile) ? (JSON.parse(fs.readFileSync(loadedFile, "utf8")) as string[]) : undefined,
    );
    const chunks = loaded.filter((f) => f.includes(`${path.sep}.next${path.sep}server${path.sep}`));
    expect(chunks.length).toBeGreaterThan(0);
    expect(loaded.filter((f) => /next-swc|@next[\\/]swc/.test(f))).toEqual([]);
    expect(chunks.some((f) => f.includes(`app${path.sep}api${path.sep}health`))).toBe(true);
    expect(chunks.filter((f) => f.includes(`app${path.sep}api${path.sep}sessions`))).toEqual([]);
    const holding = (marker: string) => chunks.filter((f) => fs.readFileSync(f, "utf8").includes(marker));
    expect(holding("https://better-auth.invalid")).toEqual([]);
    expect(holding("The turn stopped on an error")).toEqual([]);
    expect(loaded.filter((f) => /node_modules[\\/]re2-wasm[\\/]/.test(f))).toEqual([]);
  });

  it("stops within 5 s of SIGTERM with live streams open", async () => {
    const created = await fetch(`${server.url}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...operatorHeaders() },
      body: JSON.stringify({ title: "streams" }),
    });
    expect(created.status).toBe(201);
    const { session } = (await created.json()) as { session: { id: string } };
    // Three tabs' live streams, each connected (its first bytes read) before the signal.
    const streams = await Promise.all(
      [1, 2, 3].map(async () => {
        const res = await fetch(`${server.url}/api/sessions/${session.id}/stream`, { headers: operatorHeaders() });
        expect(res.headers.get("content-type")).toContain("text/event-stream");
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toContain("connected");
        return reader;
      }),
    );
    const started = Date.now();
    const gone = exited(server);
    process.kill(server.proc.pid as number, "SIGTERM");
    const stopped = await Promise.race([gone.then(() => true), new Promise((r) => setTimeout(() => r(false), 5_000))]);
    expect(stopped, `still running ${Date.now() - started} ms after SIGTERM`).toBe(true);
    // Nothing of it still answers: Next's own process went with it.
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    for (const reader of streams) await reader.cancel().catch(() => undefined);
  });
});
