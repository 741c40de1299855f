// OpenCode's plans on Plangate's desk, end to end with the real CLI (`opencode serve`, pinned, installed at test
// time), a fake OpenAI-compatible model API, a real Plangate server and the plugin `plangate connect opencode`
// writes: the plan appears as a review, and the person's decision there reaches the model.
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorHeaders, realServerFixture } from "../helpers/server";
import { addPersonByScript, approveAs, connectByEmail, signInOverHttp } from "../helpers/people";
import { answersCall, planPath, startFakeOpenAI, toolResult, type FakeOpenAI, type Recorded } from "./fake-openai";
import { cliForSuite, OPENCODE } from "./install-clis";
import { startOpencode, type OpencodeServer } from "./run-opencode";
import { until } from "../helpers/poll";

const opencode = await cliForSuite(OPENCODE);
const fixture = realServerFixture("opencode");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const api = async (method: string, route: string, body?: unknown) => {
  const res = await fetch(`${fixture.server().url}${route}`, {
    method,
    headers: { "content-type": "application/json", ...operatorHeaders() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe.skipIf(!opencode)(`OpenCode ${OPENCODE.version} reviewed in Plangate (real CLI, fake model API)`, () => {
  let fake: FakeOpenAI;
  let oc: OpencodeServer;
  let ws: string;
  let configHome: string;

  beforeAll(async () => {
    ws = path.join(fixture.workspace, "project");
    fs.mkdirSync(ws, { recursive: true });
    // As a person sets it up: they sign in once, and the plugin gets an agent token of its own (no operator token).
    addPersonByScript(fixture.env, "oc-owner@example.com", "reviewer");
    configHome = fs.mkdtempSync(path.join(fixture.workspace, "..", "config-"));
    const connected = connectByEmail({
      agent: "opencode",
      url: fixture.server().url,
      cwd: ws,
      configHome,
      email: "oc-owner@example.com",
    });
    expect(connected.status, connected.stderr).toBe(0);
    expect(connected.stdout).toContain("agent token for oc-owner@example.com saved");
    expect(fs.existsSync(path.join(ws, ".opencode/plugin/plangate.js"))).toBe(true);
    fake = await startFakeOpenAI();
    oc = await startOpencode({
      bin: opencode as string,
      modelBaseUrl: fake.url,
      workspace: ws,
      env: { XDG_CONFIG_HOME: configHome, PLANGATE_TOKEN: "" },
    });
  }, 180_000);
  afterAll(async () => {
    await oc?.stop();
    await fake?.close();
  });

  const pendingReview = (_externalId: string) =>
    until(
      () => api("GET", "/api/reviews?status=pending"),
      (r) => r.body.reviews.length > 0,
      60_000,
    ).then(async (r) => {
      const review = r.body.reviews[0] as { id: string; sessionId: string };
      const session = (await api("GET", `/api/sessions/${review.sessionId}`)).body;
      expect(session.session).toMatchObject({ agent: "opencode", workspace: fs.realpathSync(ws) });
      expect(session.state.status).toBe("awaiting_review");
      expect(session.session.title).toMatch(new RegExp(` · ${path.basename(ws)}$`));
      return review;
    });

  it("approved on the desk with an edit: OpenCode switches to build, the model reads the edited plan and writes", async () => {
    const original = "# Plan\n\n1. Create hello.txt saying hi.\n";
    const edited = "# Plan\n\n1. Create hello.txt saying hello.\n2. Reviewer: keep it short.\n";
    let file = "";
    fake.push(
      (req) => {
        file = planPath(req);
        return { toolCalls: [{ name: "write", args: { filePath: file, content: original } }] };
      },
      { toolCalls: [{ name: "plan_exit", args: {}, id: "call_exit_approve" }] },
      () => ({ toolCalls: [{ name: "read", args: { filePath: file }, id: "call_read_plan" }] }),
      { toolCalls: [{ name: "write", args: { filePath: "hello.txt", content: "hello\n" } }] },
      { text: "Done." },
    );
    const session = await oc.createSession();
    const from = oc.events.length;
    await oc.prompt(session.id, "Plan: add hello.txt");
    const review = await pendingReview(session.id);
    if (fs.existsSync(CHROMIUM) || process.env.CI) {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      });
      try {
        const page = await browser.newPage({ extraHTTPHeaders: operatorHeaders() });
        await page.goto(`${fixture.server().url}/sessions/${review.sessionId}`);
        await page.getByTestId("decision-card").waitFor({ timeout: 20_000 });
        expect(await page.getByTestId("decision-card").textContent()).toContain("Create hello.txt saying hi.");
        expect(await page.getByTestId("outside-agent").textContent()).toContain("OpenCode");
      } finally {
        await browser.close();
      }
    }
    expect(
      (
        await api("POST", `/api/reviews/${review.id}/decision`, {
          decision: "approve",
          plan: edited,
          mode: "acceptEdits",
        })
      ).status,
    ).toBe(200);
    await oc.waitIdle(session.id, from, 90_000);
    const afterRead = fake.main().find(answersCall("call_read_plan")) as Recorded;
    expect(toolResult(afterRead.body, "call_read_plan")).toContain("Reviewer: keep it short.");
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
    expect((await api("GET", `/api/sessions/${review.sessionId}`)).body.state.status).toBe("idle");
  }, 180_000);

  it("rejected with a line comment: plan_exit's result carries the feedback and the comment; nothing is written", async () => {
    fake.push(
      (req) => ({
        toolCalls: [
          { name: "write", args: { filePath: planPath(req), content: "# Plan\n\n1. Create rejected.txt.\n" } },
        ],
      }),
      { toolCalls: [{ name: "plan_exit", args: {}, id: "call_exit_reject" }] },
      { text: "I will revise the plan." },
    );
    const session = await oc.createSession();
    const from = oc.events.length;
    await oc.prompt(session.id, "Plan: add rejected.txt");
    const review = await pendingReview(session.id);
    await api("POST", `/api/reviews/${review.id}/decision`, {
      decision: "reject",
      feedback: "Not this file.",
      comments: [{ lineStart: 3, lineEnd: 3, body: "Why rejected.txt?" }],
    });
    await oc.waitIdle(session.id, from, 90_000);
    const result =
      toolResult((fake.main().find(answersCall("call_exit_reject")) as Recorded).body, "call_exit_reject") ?? "";
    expect(result).toContain("Not this file.");
    expect(result).toContain("Why rejected.txt?");
    // Still the plan agent: the next request offers plan_exit again.
    expect(
      (fake.main().find(answersCall("call_exit_reject")) as Recorded).body.tools?.some(
        (t) => t.function.name === "plan_exit",
      ),
    ).toBe(true);
    expect(fs.existsSync(path.join(ws, "rejected.txt"))).toBe(false);
  }, 180_000);

  it("under a review policy of two approvals, plan_exit keeps waiting after the first and goes on after the second", async () => {
    const workspace = fs.realpathSync(ws);
    const policy = { workspace, approvals: 2, allowSelfApproval: false, paths: [] };
    expect((await api("PUT", "/api/policies", policy)).status).toBe(200);
    try {
      fake.push(
        (req) => ({
          toolCalls: [
            { name: "write", args: { filePath: planPath(req), content: "# Plan\n\n1. Create policy.txt.\n" } },
          ],
        }),
        { toolCalls: [{ name: "plan_exit", args: {}, id: "call_exit_policy" }] },
        { toolCalls: [{ name: "write", args: { filePath: "policy.txt", content: "approved twice\n" } }] },
        { text: "Done." },
      );
      const session = await oc.createSession();
      const from = oc.events.length;
      await oc.prompt(session.id, "Plan: add policy.txt");
      const review = await pendingReview(session.id);
      const url = fixture.server().url;
      for (const email of ["oc-ann@example.com", "oc-ben@example.com"])
        addPersonByScript(fixture.env, email, "reviewer");
      const [own, ann, ben] = [
        await signInOverHttp(url, "oc-owner@example.com"),
        await signInOverHttp(url, "oc-ann@example.com"),
        await signInOverHttp(url, "oc-ben@example.com"),
      ];
      // The agent token's person started the session: self-approval off refuses them.
      expect((await approveAs(url, own, review.id)).status).toBe(403);
      const first = await approveAs(url, ann, review.id, { mode: "acceptEdits" });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.review?.status).toBe("pending");
      // plan_exit has had no answer: the model was not asked again, nothing is written.
      expect(fake.main().find(answersCall("call_exit_policy"))).toBeUndefined();
      expect(fs.existsSync(path.join(ws, "policy.txt"))).toBe(false);
      expect((await approveAs(url, ben, review.id, { mode: "acceptEdits" })).status).toBe(200);
      await oc.waitIdle(session.id, from, 90_000);
      expect(fake.main().find(answersCall("call_exit_policy"))).toBeDefined();
      expect(fs.readFileSync(path.join(ws, "policy.txt"), "utf8")).toBe("approved twice\n");
    } finally {
      await api("PUT", "/api/policies", { ...policy, approvals: 1, allowSelfApproval: true });
    }
  }, 180_000);
});
