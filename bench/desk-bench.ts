import { chromium } from "@playwright/test";
import { operatorHeaders } from "./lib/credential";
import { type AppServer, buildIfStale, request, sleep, startAppServer } from "./lib/servers";
import { smallVsBig, timedGet } from "./lib/small-vs-big";
import { groupUsage } from "./lib/proc-group";
import { median, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";

const ROUNDS = Number(process.env.BENCH_DESK_ROUNDS ?? 5);
const SAMPLES = Number(process.env.BENCH_DESK_SAMPLES ?? 20);
const WINDOW_MS = Number(process.env.BENCH_DESK_WINDOW_MS ?? 10_000);
const SIZES = [10, Number(process.env.BENCH_DESK_WAITING ?? 1000)] as const;

/** CPU seconds used so far by every process in the server's group. */
const groupCpuSeconds = (pgid: number) => groupUsage(pgid).cpuSeconds;

/** The share of one core the server used over each of three windows (median). */
async function idleShare(server: AppServer): Promise<number> {
  const shares: number[] = [];
  for (let w = 0; w < 3; w++) {
    const before = groupCpuSeconds(server.proc.pid as number);
    const start = performance.now();
    await sleep(WINDOW_MS);
    shares.push((groupCpuSeconds(server.proc.pid as number) - before) / ((performance.now() - start) / 1000));
  }
  return median(shares);
}

async function seed(server: AppServer, n: number): Promise<string> {
  let sessionId = "";
  for (let i = 0; i < n; i++) {
    const res = await request(server.port, "POST", "/api/external/plan-reviews", {
      agent: "claude-code",
      externalSessionId: `desk-bench-${i}`,
      cwd: `/bench/project-${i % 7}`,
      plan: `# Plan ${i}: add the thing\n\n1. Change \`src/thing-${i}.ts\`\n2. Test it\n`,
    });
    if (res.status !== 201) throw new Error(`seeding answered ${res.status}: ${JSON.stringify(res.body)}`);
    sessionId = res.body.sessionId as string;
  }
  return sessionId;
}

export async function benchDesk() {
  buildIfStale();
  const dbs = SIZES.map((n) => tempDb(`desk-${n}`));
  const servers: AppServer[] = [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    for (const t of dbs) servers.push(await startAppServer({ DATABASE_URL: t.url, PLANGATE_ALLOW_SCRIPTED: "1" }));
    const sessions = await Promise.all(servers.map((s, i) => seed(s, SIZES[i] as number)));

    const idle = [];
    for (const [i, server] of servers.entries()) {
      const floor = await idleShare(server);
      const context = await browser.newContext({ extraHTTPHeaders: operatorHeaders() });
      for (const path of ["/desk", "/", `/sessions/${sessions[i]}`]) {
        const page = await context.newPage();
        await page.goto(`http://127.0.0.1:${server.port}${path}`);
        await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      }
      // Let the pages settle (hydration, the streams' first messages) before the windows.
      await sleep(2_000);
      const withTabs = await idleShare(server);
      await context.close();
      idle.push({ waiting: SIZES[i], floorCore: round(floor, 4), tabsCore: round(withTabs, 4), targetCore: 0.01 });
    }

    const at = (i: number, path: string) => () => timedGet((servers[i] as AppServer).port, path);
    const f = await smallVsBig(ROUNDS, SAMPLES, {
      page: { small: at(0, "/desk"), big: at(1, "/desk") },
      api: { small: at(0, "/api/desk"), big: at(1, "/api/desk") },
    });
    const ms = (kind: "page" | "api", side: "small" | "big") => round(median(f[kind]?.[side] ?? []), 2);
    return {
      name: "desk-at-scale",
      waiting: SIZES,
      idle,
      desk: {
        pageMsP50: { small: ms("page", "small"), big: ms("page", "big") },
        apiMsP50: { small: ms("api", "small"), big: ms("api", "big") },
        pageRatio: round(median(f.page?.ratio ?? []), 2),
        apiRatio: round(median(f.api?.ratio ?? []), 2),
        targetRatio: 2,
      },
    };
  } finally {
    await browser.close();
    for (const s of servers) await s.stop();
    for (const t of dbs) await t.dispose();
  }
}
