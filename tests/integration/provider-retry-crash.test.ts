// A real server waiting to retry a failed model request: the page shows the wait, kill -9 during it loses
// nothing, and the person resumes (or retries a failed turn) from the page.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "../../lib/db/migrate";
import { freshDatabaseUrl, onPostgres } from "../helpers/db";
import { freePort, http, operatorHeaders, startServer, type Server } from "../helpers/server";
import { startFakeAnthropic, type FakeAnthropic } from "../agents/fake-anthropic";
import { until } from "../helpers/poll";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const noBrowser = !fs.existsSync(CHROMIUM) && !process.env.CI;
if (noBrowser)
  console.warn(
    `plangate: ${CHROMIUM} is missing, so the retry page test is skipped (apt-get install -y chromium to run it)`,
  );

const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-retry-crash-"));
const workspace = path.join(root, "ws");
fs.mkdirSync(workspace, { recursive: true });
let fake: FakeAnthropic;
let server: Server | undefined;
let browser: Browser | undefined;
let env: Record<string, string>;
let port = 0;

beforeAll(async () => {
  fake = await startFakeAnthropic({
    turns: [
      // Session 1: a 503 naming its wait (the backoff's own wait is jittered, anywhere from 0 up to the base, and the
      // page must open inside it), then (after the crash and the resume) an answer.
      { fault: { kind: "status", status: 503, headers: { "retry-after": "25" } } },
      [{ type: "text", text: "Answered after the crash." }],
      // Session 2: a request the provider rejects for good, then (after Retry on the page) an answer.
      {
        fault: {
          kind: "status",
          status: 400,
          body: { type: "error", error: { type: "invalid_request_error", message: "temporary validation glitch" } },
        },
      },
      [{ type: "text", text: "Answered on retry." }],
    ],
  });
  env = {
    DATABASE_URL: freshDatabaseUrl(root).url,
    PLANGATE_DATA_DIR: root,
    PLANGATE_WORKSPACE_ROOTS: root,
    ANTHROPIC_API_KEY: "sk-ant-test-crash",
    ANTHROPIC_BASE_URL: fake.url,
    // A long first wait, so the crash lands inside it; a short lease, so the restart soon sees the turn as cut. Not
    // shorter: on a loaded machine two missed renewals (the lease's third) let the live server's own reaper cut the
    // turn during the wait, and the page rightly showed no wait (CI's Node 24 pass, once).
    PLANGATE_RETRY_BASE_MS: "20000",
    PLANGATE_LEASE_TTL_MS: "6000",
  };
  await migrateDatabase(env.DATABASE_URL!, { quiet: true });
  port = await freePort();
  server = await startServer(env, port);
  // The session page's code is loaded by its first request (the server preloads no route): loaded here, so the page
  // opened inside the 25 s retry wait renders in its usual time even on a loaded machine.
  await fetch(`${server.url}/sessions/ses_warm`, { headers: operatorHeaders() }).then((r) => r.text());
  if (!noBrowser)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.close();
  fs.rmSync(root, { recursive: true, force: true });
}, 60_000);

const events = async (id: string) =>
  (await http(`${server!.url}/api/sessions/${id}/events`, "GET")).body.events as {
    seq: number;
    type: string;
    payload: Record<string, unknown>;
  }[];
const state = async (id: string) =>
  (await http(`${server!.url}/api/sessions/${id}`, "GET")).body.state as { status: string; retry: unknown };

async function openPage(id: string) {
  const page = await (await browser!.newContext({ extraHTTPHeaders: operatorHeaders() })).newPage();
  await page.goto(`${server!.url}/sessions/${id}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
  return page;
}

describe.skipIf(noBrowser)("a retry wait on a real server", () => {
  it("shows the wait on the page; kill -9 during it loses nothing, and Resume makes the request once", async () => {
    const created = await http(`${server!.url}/api/sessions`, "POST", { workspace, model: "anthropic:claude-fake" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.session.id as string;
    expect((await http(`${server!.url}/api/sessions/${id}/messages`, "POST", { text: "hello" })).status).toBe(202);
    await until(
      () => state(id),
      (s) => s.retry !== null,
    );

    const page = await openPage(id);
    const banner = page.getByTestId("retry-banner");
    await banner.waitFor({ timeout: 15_000 }).catch(async (error: Error) => {
      // What the page and the log said instead, so a failure names its cause.
      const log = (await events(id)).map((e) => e.type).join(", ");
      throw new Error(`${error.message}\nlog: ${log}\npage: ${(await page.innerText("body")).slice(0, 600)}`);
    });
    expect(await banner.innerText()).toMatch(/503 Service Unavailable.*retrying in \d+ s \(attempt 2 of 5\)/is);
    await page.close();

    const before = await events(id);
    expect(before.at(-1)).toMatchObject({
      type: "model.retrying",
      payload: { attempt: 2, of: 5, reason: "503 Service Unavailable" },
    });
    // The wait the provider named (25 s), not a jittered one.
    expect(Date.parse(String(before.at(-1)?.payload.retryAt)) - Date.now()).toBeGreaterThan(10_000);
    await server!.kill9();
    server = await startServer(env, port);

    if (onPostgres) {
      // PostgreSQL's policy (a pool of instances): the restarted instance takes the turn over and makes the request.
      await until(
        () => state(id),
        (s) => s.status === "idle",
        30_000,
      );
      const after = await events(id);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.filter((e) => e.type === "notice").map((e) => e.payload.text)).toEqual([
        expect.stringMatching(/another instance took the turn over/),
      ]);
    } else {
      // SQLite's policy: a turn cut by a crash waits for a person (nothing runs that nobody saw coming).
      await until(
        () => state(id),
        (s) => s.status === "interrupted",
        30_000,
      );
      const after = await events(id);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.slice(before.length).map((e) => e.type)).toEqual(["turn.interrupted"]);
      expect(fake.mainRequests()).toHaveLength(1);
      const resumed = await openPage(id);
      await resumed.getByTestId("resume").click();
      await until(
        () => state(id),
        (s) => s.status === "idle",
        30_000,
      );
      await resumed.close();
    }
    const done = await events(id);
    expect(done.filter((e) => e.type === "message.assistant").map((e) => e.payload.text)).toEqual([
      "Answered after the crash.",
    ]);
    expect(done.filter((e) => e.type === "message.user")).toHaveLength(1);
    expect(fake.mainRequests()).toHaveLength(2);
  });

  it("a turn that failed for good says why and offers Retry on the page", async () => {
    const created = await http(`${server!.url}/api/sessions`, "POST", { workspace, model: "anthropic:claude-fake" });
    const id = created.body.session.id as string;
    expect((await http(`${server!.url}/api/sessions/${id}/messages`, "POST", { text: "hello again" })).status).toBe(
      202,
    );
    await until(
      () => state(id),
      (s) => s.status === "interrupted",
    );
    const page = await openPage(id);
    await page.getByText("temporary validation glitch").first().waitFor({ timeout: 15_000 });
    const retry = page.getByTestId("resume");
    expect(await retry.innerText()).toBe("Retry");
    await retry.click();
    await until(
      () => state(id),
      (s) => s.status === "idle",
      30_000,
    );
    expect((await events(id)).filter((e) => e.type === "message.assistant").map((e) => e.payload.text)).toEqual([
      "Answered on retry.",
    ]);
    expect(fake.mainRequests()).toHaveLength(4);
    await page.close();
  });
});
