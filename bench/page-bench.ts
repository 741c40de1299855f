/** Opening a session with 5,000 events in the production build: time until the page is hydrated (Chromium). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { migrateDatabase } from "../lib/db/migrate";
import { appendEvents } from "../lib/session/append-events";
import { createSession } from "../lib/session/create-session";
import type { NewEvent } from "../lib/session/log/events";
import { freePort, startServer } from "../tests/helpers/server";
import { OPERATOR_COOKIE } from "../lib/auth/rules/cookie-names";
import { OPERATOR_TOKEN } from "./lib/credential";
import { median, quantile, round } from "./lib/stats";

const EVENTS = 5_000;
const RUNS = 11;

function batch(from: number, count: number): NewEvent[] {
  const out: NewEvent[] = [];
  for (let i = from; i < from + count; i++) {
    const k = i % 5;
    if (k === 0)
      out.push({ type: "message.user", payload: { text: `Step ${i}: look at **module ${i}** and report.` } });
    else if (k === 1)
      out.push({ type: "tool.called", payload: { callId: `c${i}`, tool: "read", input: { path: `src/m${i}.ts` } } });
    else if (k === 2)
      out.push({
        type: "tool.result",
        payload: { callId: `c${i - 1}`, tool: "read", ok: true, output: "export const x = 1;\n".repeat(20) },
      });
    else if (k === 3) out.push({ type: "notice", payload: { level: "info", text: `checkpoint ${i}` } });
    else
      out.push({
        type: "message.assistant",
        payload: { text: `Module ${i} is fine.\n\n- it exports x\n- it has no tests` },
      });
  }
  return out;
}

export async function benchPage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-bench-page-"));
  const env = {
    DATABASE_URL: `file:${path.join(dir, "db.sqlite")}`,
    PLANGATE_DATA_DIR: dir,
    PLANGATE_WORKSPACE_ROOTS: dir,
    PLANGATE_TOKEN: OPERATOR_TOKEN,
  };
  migrateDatabase(env.DATABASE_URL, { quiet: true });
  const db = createDb(env.DATABASE_URL);
  const { id } = await createSession(db, {
    title: "Long session",
    workspace: dir,
    agent: "build",
    model: "offline",
    mode: "default",
  });
  for (let i = 0; i < EVENTS - 1; i += 500) await appendEvents(db, id, batch(i, Math.min(500, EVENTS - 1 - i)));
  await db.$disconnect();

  const server = await startServer(env, await freePort());
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  // The operator's cookie, as a ?token= link leaves it: without a credential the page would be the sign-in form.
  const context = await browser.newContext();
  await context.addCookies([{ name: OPERATOR_COOKIE, value: OPERATOR_TOKEN, url: server.url }]);
  const baselineRuns: number[] = [];
  const runs: { hydratedMs: number; domInteractiveMs: number; responseStartMs: number; responseEndMs: number }[] = [];
  try {
    for (let i = 0; i <= RUNS; i++) {
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${server.url}/sessions/${id}`, { waitUntil: "commit" });
      await page.waitForSelector("html[data-hydrated]", { timeout: 30_000 });
      const hydratedMs = performance.now() - t0;
      if (new URL(page.url()).pathname !== `/sessions/${id}`) throw new Error(`the session page went to ${page.url()}`);
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return { domInteractiveMs: n.domInteractive, responseStartMs: n.responseStart, responseEndMs: n.responseEnd };
      });
      await page.close();
      if (i > 0) runs.push({ hydratedMs, ...nav }); // the first visit warms the server
      // The same measure on a page with nothing on it: what the browser and framework cost on this machine.
      const empty = await context.newPage();
      const e0 = performance.now();
      await empty.goto(`${server.url}/sessions/${id}/../../missing-page`, { waitUntil: "commit" });
      await empty.waitForSelector("html[data-hydrated]", { timeout: 30_000 });
      if (i > 0) baselineRuns.push(performance.now() - e0);
      await empty.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const hydrated = runs.map((r) => r.hydratedMs).sort((a, b) => a - b);
  const baseline = baselineRuns.sort((a, b) => a - b);
  return {
    events: EVENTS,
    runs: RUNS,
    hydratedMedianMs: round(median(hydrated), 1),
    hydratedP95Ms: round(quantile(hydrated, 0.95), 1),
    responseStartMedianMs: round(median(runs.map((r) => r.responseStartMs)), 1),
    responseEndMedianMs: round(median(runs.map((r) => r.responseEndMs)), 1),
    domInteractiveMedianMs: round(median(runs.map((r) => r.domInteractiveMs)), 1),
    emptyPageHydratedMedianMs: round(median(baseline), 1),
    targetMs: 1500,
  };
}
