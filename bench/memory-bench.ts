/**
 * Issue 43's memory: what `npm start` holds while it serves, beside an empty `next start` of the same Next (an app
 * of one static page, built once in the user's cache folder), both measured as the resident memory of every
 * process in the server's process group, idle after the same warm-up; and what 1,000 idle live streams add to the
 * server and take to open, beside a bare node:http SSE server in its own process. Rounds alternate the order.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AppServer, freePort, request, send, sleep, startAppServer, subscribe } from "./lib/servers";
import { groupUsage } from "./lib/proc-group";
import { median, round } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 3);
const STREAMS = Number(process.env.BENCH_MEMORY_STREAMS ?? 1000);
const root = path.resolve(import.meta.dirname, "..");
const emptyNextBin = () => path.join(emptyApp, "node_modules", "next", "dist", "bin", "next");
// Outside the checkout (inside it, Next would take the checkout for the project and build its instrumentation), with
// the checkout's node_modules as hard links (Turbopack follows no link out of the project).
const nextVersion = (
  JSON.parse(fs.readFileSync(path.join(root, "node_modules", "next", "package.json"), "utf8")) as {
    version: string;
  }
).version;
// In the user's own cache folder (made 0700), not a shared temporary one another account could prepare.
const emptyApp = path.join(os.homedir(), ".cache", "plangate-bench", `empty-next-${nextVersion}`);

/** Resident MB of every process in the group `pgid` (a server and anything it keeps running beside it). */
const groupRssMb = (pgid: number) => groupUsage(pgid).rssMb;

/** The empty app, built once (its build is kept between runs). */
function buildEmptyApp(): void {
  if (fs.existsSync(path.join(emptyApp, ".next", "BUILD_ID"))) return;
  fs.rmSync(emptyApp, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(emptyApp), { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(emptyApp, "app"), { recursive: true });
  const linked = spawnSync("cp", ["-al", path.join(root, "node_modules"), path.join(emptyApp, "node_modules")]);
  if (linked.status !== 0) throw new Error(`linking node_modules failed: ${linked.stderr}`);
  fs.writeFileSync(path.join(emptyApp, "package.json"), '{"name":"empty-next","private":true}\n');
  fs.writeFileSync(path.join(emptyApp, "next.config.mjs"), "export default {};\n");
  fs.writeFileSync(
    path.join(emptyApp, "app", "page.tsx"),
    "export default function Page() {\n  return <p>empty</p>;\n}\n",
  );
  fs.writeFileSync(
    path.join(emptyApp, "app", "layout.tsx"),
    'export default function Layout({ children }: { children: React.ReactNode }) {\n  return (\n    <html lang="en">\n      <body>{children}</body>\n    </html>\n  );\n}\n',
  );
  const r = spawnSync(process.execPath, [emptyNextBin(), "build"], {
    cwd: emptyApp,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("the empty app's build failed");
}

async function waitFor(port: number, urlPath: string, proc: ChildProcess): Promise<void> {
  for (const end = Date.now() + 60_000; ; await sleep(100)) {
    const status = await send(port, "GET", urlPath).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (proc.exitCode !== null || Date.now() > end) throw new Error(`nothing answered ${urlPath} on ${port}`);
  }
}

/** A detached child in its own group; stop() ends the group. */
function spawnGroup(args: string[], cwd: string): { proc: ChildProcess; stop: () => Promise<void> } {
  const proc = spawn(process.execPath, args, {
    cwd,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  const stop = async () => {
    try {
      process.kill(-(proc.pid as number), "SIGKILL");
    } catch {
      return;
    }
    await new Promise((r) => (proc.exitCode !== null || proc.signalCode !== null ? r(null) : proc.once("exit", r)));
  };
  return { proc, stop };
}

/** Idle MB after the same warm-up (20 requests, then a pause). */
async function idleMb(port: number, pgid: number, urlPath: string): Promise<number> {
  for (let i = 0; i < 20; i++) await send(port, "GET", urlPath);
  await sleep(2_000);
  return groupRssMb(pgid);
}

/** Opens STREAMS idle SSE streams at once; ms until every one said it is connected, and MB the server added. */
async function openStreams(port: number, pgid: number, urlPath: string): Promise<{ ms: number; addedMb: number }> {
  const before = groupRssMb(pgid);
  const start = performance.now();
  const subs = await Promise.all(Array.from({ length: STREAMS }, () => subscribe(port, urlPath)));
  const ms = performance.now() - start;
  await sleep(2_000);
  const addedMb = groupRssMb(pgid) - before;
  for (const s of subs) s.close();
  await sleep(500);
  return { ms, addedMb };
}

const BARE_SSE = `const h=require("node:http");const srv=h.createServer((q,s)=>{s.writeHead(200,{"content-type":"text/event-stream","cache-control":"no-cache"});s.write(": connected\\n\\n");const t=setInterval(()=>s.write(": ping\\n\\n"),15000);q.on("close",()=>clearInterval(t))});srv.listen(Number(process.argv[1]),"127.0.0.1");`;

type Round = {
  plangateMb: number;
  emptyNextMb: number;
  streams: { ms: number; addedMb: number };
  bare: { ms: number; addedMb: number };
};

export async function benchMemory() {
  buildEmptyApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-memory-"));
  const rounds: Round[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const one = {} as Round;
      const measurePlangate = async () => {
        const server: AppServer = await startAppServer({
          DATABASE_URL: `file:${path.join(dir, `r${r}`, "plangate.db")}`,
          PLANGATE_DATA_DIR: path.join(dir, `data-${r}`),
          PLANGATE_WORKSPACE_ROOTS: path.join(dir, "roots"),
        });
        try {
          const pgid = server.proc.pid as number;
          one.plangateMb = await idleMb(server.port, pgid, "/api/health");
          const created = await request(server.port, "POST", "/api/sessions", { title: "streams" });
          one.streams = await openStreams(server.port, pgid, `/api/sessions/${created.body.session.id}/stream`);
        } finally {
          await server.stop();
        }
      };
      const measureFloors = async () => {
        const port = await freePort();
        const empty = spawnGroup([emptyNextBin(), "start", "-H", "127.0.0.1", "-p", String(port)], emptyApp);
        try {
          await waitFor(port, "/", empty.proc);
          one.emptyNextMb = await idleMb(port, empty.proc.pid as number, "/");
        } finally {
          await empty.stop();
        }
        const ssePort = await freePort();
        const bare = spawnGroup(["-e", BARE_SSE, String(ssePort)], root);
        try {
          await sleep(300);
          one.bare = await openStreams(ssePort, bare.proc.pid as number, "/");
        } finally {
          await bare.stop();
        }
      };
      if (r % 2 === 0) {
        await measurePlangate();
        await measureFloors();
      } else {
        await measureFloors();
        await measurePlangate();
      }
      rounds.push(one);
      process.stderr.write(
        `  round ${r + 1}/${ROUNDS}: idle ${round(one.plangateMb, 1)} MB (empty next ${round(one.emptyNextMb, 1)}); ${STREAMS} streams +${round(one.streams.addedMb, 1)} MB in ${round(one.streams.ms, 0)} ms (bare +${round(one.bare.addedMb, 1)} MB in ${round(one.bare.ms, 0)} ms)\n`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const med = (pick: (r: Round) => number) => round(median(rounds.map(pick)), 2);
  return {
    name: "memory-idle-and-streams",
    rounds: ROUNDS,
    streams: STREAMS,
    targets: "idle within 1.5x of an empty next start; 1,000 idle streams under 30 MB more and open in under 1 s",
    idleMb: { plangate: med((r) => r.plangateMb), emptyNextStart: med((r) => r.emptyNextMb) },
    idleRatio: med((r) => r.plangateMb / r.emptyNextMb),
    streamsAddedMb: { plangate: med((r) => r.streams.addedMb), bareNodeSse: med((r) => r.bare.addedMb) },
    streamsOpenMs: { plangate: med((r) => r.streams.ms), bareNodeSse: med((r) => r.bare.ms) },
    streamsOpenRatio: med((r) => r.streams.ms / r.bare.ms),
  };
}
