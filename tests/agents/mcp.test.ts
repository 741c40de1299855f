// Any MCP client's plans on Plangate's desk: the SDK's own client as the agent runs `plangate mcp` over stdio,
// submits a plan, waits in bounded calls (with progress notifications), and reads the person's decision: an
// approval made in the browser with a note, a rejection with feedback and a line comment, then the revision as
// version 2 of the same plan. Its token is an agent token: it can never decide its own plan.
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, realServerFixture } from "../helpers/server";
import { addPersonByScript, connectByEmail, TEST_PASSWORD } from "../helpers/people";

const fixture = realServerFixture("mcp");
const repo = path.resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const EMAIL = "mcp-owner@example.com";
const PLAN = "# Greet\n\n1. Create hello.txt with a greeting.\n";
let client: Client;
let configHome = "";
let ws = "";

const api = (method: string, route: string, body?: unknown) => http(`${fixture.server().url}${route}`, method, body);

type Result = {
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
  isError?: boolean;
};
const call = async (name: string, args: Record<string, unknown>, onprogress?: () => void) =>
  (await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : undefined)) as Result;

beforeAll(async () => {
  ws = path.join(fixture.workspace, "mcp-project");
  fs.mkdirSync(ws, { recursive: true });
  addPersonByScript(fixture.env, EMAIL, "reviewer");
  configHome = fs.mkdtempSync(path.join(fixture.workspace, "..", "config-"));
  const r = connectByEmail({ agent: "mcp", url: fixture.server().url, cwd: ws, configHome, email: EMAIL });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('"mcpServers"');
  client = new Client({ name: "plangate-tests", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(repo, "bin", "plangate.mjs"), "mcp", "--url", fixture.server().url],
      cwd: ws,
      env: { PATH: process.env.PATH ?? "", XDG_CONFIG_HOME: configHome },
    }),
  );
}, 120_000);
afterAll(async () => {
  await client?.close();
});

describe("plangate mcp (the MCP SDK's client as the agent)", () => {
  it("lists its tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "request_permission",
      "submit_plan",
      "wait_for_permission",
      "wait_for_review",
    ]);
  });

  it("a plan approved in the browser with a note: the wait's result carries the approval and the note", async () => {
    const submitted = await call("submit_plan", { plan: PLAN });
    const reviewId = submitted.structuredContent?.reviewId as string;
    expect(submitted.structuredContent?.status).toBe("pending");
    // A bounded wait while nobody has decided: pending, with progress notifications on the way.
    let progress = 0;
    const waited = await call("wait_for_review", { reviewId, waitSeconds: 2 }, () => {
      progress += 1;
    });
    expect(waited.structuredContent?.status).toBe("pending");
    expect(progress, JSON.stringify(waited)).toBeGreaterThan(0);
    const { sessionId } = (await api("GET", `/api/reviews/${reviewId}`)).body.review;
    expect((await api("GET", `/api/sessions/${sessionId}`)).body.session).toMatchObject({
      agent: "mcp",
      workspace: fs.realpathSync(ws),
    });

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const url = new URL(fixture.server().url);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      // The person signs in in this browser (its request context shares the browser's cookies).
      const signIn = await context.request.post(`${url.origin}/api/auth/sign-in/email`, {
        headers: { origin: url.origin },
        data: { email: EMAIL, password: TEST_PASSWORD },
      });
      expect(signIn.status()).toBe(200);
      const page = await context.newPage();
      await page.goto(`${fixture.server().url}/sessions/${sessionId}`);
      const card = page.getByTestId("decision-card");
      await card.waitFor({ timeout: 30_000 });
      await card.getByTestId("keep-planning").click();
      await card.getByTestId("plan-feedback").fill("Keep the greeting short.");
      await card.getByTestId("approve").click();
      const decided = await call("wait_for_review", { reviewId, waitSeconds: 30 });
      expect(decided.structuredContent?.status).toBe("approved");
      expect(decided.content[0]?.text).toContain("Keep the greeting short.");
      expect(decided.structuredContent?.plan).toBe(PLAN);
    } finally {
      await browser.close();
    }
    // Signed by the person who clicked, in the session's log.
    expect(JSON.stringify((await api("GET", `/api/sessions/${sessionId}/events`)).body)).toContain("mcp-owner");
  }, 120_000);

  it("sent back with feedback and a line comment: the wait's result carries both; the revision is version 2", async () => {
    const first = await call("submit_plan", { plan: PLAN });
    const reviewId = first.structuredContent?.reviewId as string;
    // Its own token cannot decide it: the review stays pending.
    const token = JSON.parse(fs.readFileSync(path.join(configHome, "plangate", "credentials.json"), "utf8"))[
      fixture.server().url
    ] as string;
    const self = await fetch(`${fixture.server().url}/api/reviews/${reviewId}/decision`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ decision: "approve" }),
    });
    expect(self.status).toBe(403);
    const sent = await api("POST", `/api/reviews/${reviewId}/decision`, {
      decision: "reject",
      feedback: "Add a test step.",
      comments: [{ lineStart: 3, lineEnd: 3, body: "Say which greeting." }],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const decided = await call("wait_for_review", { reviewId, waitSeconds: 10 });
    expect(decided.structuredContent?.status).toBe("rejected");
    expect(decided.content[0]?.text).toContain("Add a test step.");
    expect(decided.content[0]?.text).toContain("Say which greeting.");
    const second = await call("submit_plan", { plan: `${PLAN}2. Add a test.\n`, revises: reviewId });
    const details = (await api("GET", `/api/reviews/${second.structuredContent?.reviewId}`)).body;
    expect(details.plan.version).toBe(2);
    expect(details.plan.diff).toContain("+2. Add a test.");
  }, 60_000);
});
