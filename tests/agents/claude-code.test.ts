// Claude Code's plans on Plangate's desk, end to end with the real CLI (pinned, installed at test time) and a
// fake Anthropic API: `plangate connect claude-code` writes the hook, Claude Code runs headless in plan mode,
// the plan appears in Plangate (API and browser), and a person's decision there reaches the model.
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { afterAll, describe, expect, it } from "vitest";
import { operatorHeaders, realServerFixture } from "../helpers/server";
import { addPersonByScript, approveAs, connectByEmail, signInOverHttp } from "../helpers/people";
import { CLAUDE_CODE, cliForSuite } from "./install-clis";
import {
  findPlanFilePath,
  startFakeAnthropic,
  toolResults,
  type FakeAnthropic,
  type ScriptTurn,
} from "./fake-anthropic";
import { runClaude, toolUses, type ControlAnswer, type ControlRequest } from "./run-claude";
import { until } from "../helpers/poll";

const claude = await cliForSuite(CLAUDE_CODE);
const fixture = realServerFixture("claude-code");
const repo = path.resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PLAN = "# Plan\n\n1. Create hello.txt with a greeting.\n";
const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

const api = async (method: string, route: string, body?: unknown) => {
  const res = await fetch(`${fixture.server().url}${route}`, {
    method,
    headers: { "content-type": "application/json", ...operatorHeaders() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

// Where `connect` saves the hook's agent token (the hook runs with no operator token, as on a person's machine).
let configHome: string | undefined;
/** The hook's environment: the saved agent token, not the suites' operator token. */
const hookEnv = () => ({ XDG_CONFIG_HOME: configHome, PLANGATE_TOKEN: undefined });

/** A reviewer added with `npm run user -- add` (once) and signed in over HTTP: the session cookie they would send. */
async function personAt(email: string): Promise<string> {
  if (email !== "cc-owner@example.com") addPersonByScript(fixture.env, email, "reviewer");
  return signInOverHttp(fixture.server().url, email);
}

/** A workspace inside Plangate's roots, connected with `plangate connect claude-code --email` (an agent token). */
function connectedWorkspace(name: string, extra: string[] = []): string {
  const ws = path.join(fixture.workspace, name);
  fs.mkdirSync(ws, { recursive: true });
  if (configHome === undefined) {
    addPersonByScript(fixture.env, "cc-owner@example.com", "reviewer");
    configHome = fs.mkdtempSync(path.join(fixture.workspace, "..", "config-"));
  }
  const r = connectByEmail(
    { agent: "claude-code", url: fixture.server().url, cwd: ws, configHome, email: "cc-owner@example.com" },
    extra,
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain("agent token for cc-owner@example.com saved");
  return ws;
}

async function planRun(
  ws: string,
  afterExit: ScriptTurn[],
  onControlRequest?: (r: ControlRequest) => ControlAnswer | undefined | Promise<ControlAnswer | undefined>,
) {
  const fake: FakeAnthropic = await startFakeAnthropic({
    turns: [
      (req) => [
        { type: "tool_use", name: "Write", input: { file_path: findPlanFilePath(req) ?? "missing.md", content: PLAN } },
      ],
      [{ type: "tool_use", name: "ExitPlanMode", input: {} }],
      ...afterExit,
    ],
  });
  const home = fs.mkdtempSync(path.join(fixture.workspace, "..", "home-"));
  made.push(home);
  const running = runClaude({
    bin: claude!,
    cwd: ws,
    prompt: "Create hello.txt",
    baseUrl: fake.url,
    home,
    timeoutMs: 90_000,
    onControlRequest,
    env: hookEnv(),
  });
  return {
    fake,
    running,
    exitText: async () => {
      const run = await running;
      await fake.close();
      const callId = toolUses(run.messages).find((u) => u.name === "ExitPlanMode")?.id;
      return { run, seen: toolResults(fake.mainRequests()[2]?.body ?? null).find((t) => t.toolUseId === callId) };
    },
  };
}

const pendingIn = (ws: string) =>
  until(
    () => api("GET", "/api/reviews?status=pending"),
    (r) => r.body.reviews.some((x: { sessionId: string }) => x.sessionId),
    60_000,
  ).then(async (r) => {
    for (const review of r.body.reviews as { id: string; sessionId: string }[]) {
      const s = await api("GET", `/api/sessions/${review.sessionId}`);
      if (s.body.session.workspace === fs.realpathSync(ws)) return { reviewId: review.id, sessionId: review.sessionId };
    }
    throw new Error("no pending review for this workspace");
  });
const hello = (ws: string) => ({
  type: "tool_use" as const,
  name: "Write",
  input: { file_path: path.join(ws, "hello.txt"), content: "hello\n" },
});

describe.skipIf(!claude)(`Claude Code ${CLAUDE_CODE.version} reviewed in Plangate (real CLI, fake model API)`, () => {
  it("the plan shows on the desk (API and browser); approved there with an edit and auto-accept, the model reads the edited plan and writes", async () => {
    const ws = connectedWorkspace("approve");
    const run = await planRun(ws, [[hello(ws)], [{ type: "text", text: "Done." }]]);
    const { reviewId, sessionId } = await pendingIn(ws);
    const session = (await api("GET", `/api/sessions/${sessionId}`)).body;
    expect(session.session).toMatchObject({ agent: "claude-code", workspace: fs.realpathSync(ws) });
    expect(session.state.status).toBe("awaiting_review");

    if (fs.existsSync(CHROMIUM) || process.env.CI) {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      });
      try {
        const page = await browser.newPage({
          viewport: { width: 1280, height: 900 },
          extraHTTPHeaders: operatorHeaders(),
        });
        await page.goto(`${fixture.server().url}/sessions/${sessionId}`);
        await page.getByTestId("decision-card").waitFor({ timeout: 20_000 });
        expect(await page.getByTestId("decision-card").textContent()).toContain("Create hello.txt with a greeting.");
        // The README's picture of a Claude Code plan on the desk (regenerated on request, not on every run).
        if (process.env.PLANGATE_DOC_SCREENSHOTS)
          await page.screenshot({ path: path.join(repo, "docs/images/claude-code-plan-review.png") });
      } finally {
        await browser.close();
      }
    }

    const edited = `${PLAN}2. Reviewer: also add a test.\n`;
    expect(
      (
        await api("POST", `/api/reviews/${reviewId}/decision`, {
          decision: "approve",
          plan: edited,
          mode: "acceptEdits",
        })
      ).status,
    ).toBe(200);
    const { run: done, seen } = await run.exitText();
    expect(seen?.isError).toBe(false);
    expect(seen?.text).toContain(`## Approved Plan (edited by user):\n${edited.trim()}`);
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
    expect(done.result).toMatchObject({ subtype: "success" });
    expect((await api("GET", `/api/sessions/${sessionId}`)).body.state).toMatchObject({
      status: "idle",
      mode: "acceptEdits",
    });
  }, 150_000);

  it("under a review policy of two approvals the hook keeps Claude Code waiting after the first and lets it go on after the second", async () => {
    const ws = connectedWorkspace("policy");
    const workspace = fs.realpathSync(ws);
    const set = await api("PUT", "/api/policies", { workspace, approvals: 2, allowSelfApproval: false, paths: [] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const run = await planRun(ws, [[hello(ws)], [{ type: "text", text: "Done." }]]);
    const { reviewId } = await pendingIn(ws);
    const [ann, ben] = [await personAt("cc-ann@example.com"), await personAt("cc-ben@example.com")];
    const decide = (cookie: string) => approveAs(fixture.server().url, cookie, reviewId, { mode: "acceptEdits" });
    // The session's own person (the agent token's) may not be one of them.
    const own = await personAt("cc-owner@example.com");
    expect((await decide(own)).status).toBe(403);
    const first = await decide(ann);
    expect(first.body.review?.status).toBe("pending");
    // The hook is still waiting: the model has had no answer to its ExitPlanMode, nothing is written.
    expect((await api("GET", `/api/reviews/${reviewId}`)).body.review.status).toBe("pending");
    expect(run.fake.mainRequests()).toHaveLength(2);
    expect(fs.existsSync(path.join(ws, "hello.txt"))).toBe(false);
    expect((await decide(ben)).status).toBe(200);
    const { seen } = await run.exitText();
    expect(seen?.isError).toBe(false);
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
  }, 150_000);

  it("rejected with a line comment: the model gets the feedback and the comment, stays in plan mode, writes nothing", async () => {
    const ws = connectedWorkspace("reject");
    // After the rejection the model tries to write anyway: plan mode asks the host, which refuses.
    const run = await planRun(ws, [[hello(ws)], [{ type: "text", text: "Revising." }]], (req) =>
      req.request.tool_name === "Write" ? { behavior: "deny", message: "not now" } : undefined,
    );
    const { reviewId } = await pendingIn(ws);
    await api("POST", `/api/reviews/${reviewId}/decision`, {
      decision: "reject",
      feedback: "Add a test first.",
      comments: [{ lineStart: 3, lineEnd: 3, body: "Why a greeting?" }],
    });
    const { seen, run: done } = await run.exitText();
    expect(seen?.isError).toBe(true);
    expect(seen?.text).toContain("Add a test first.");
    expect(seen?.text).toContain("Why a greeting?");
    expect(done.controlRequests.find((c) => c.request.tool_name === "Write")?.request.decision_reason_type).toBe(
      "mode",
    );
    expect(fs.existsSync(path.join(ws, "hello.txt"))).toBe(false);
  }, 150_000);

  it("answered in the terminal first: the review shows as answered there, never pending, and the hook's late answer is not used", async () => {
    const ws = connectedWorkspace("terminal");
    let asked: (() => void) | null = null;
    const seenAsk = new Promise<void>((r) => (asked = r));
    const run = await planRun(
      ws,
      [{ delayMs: 3_000, blocks: [hello(ws)] }, [{ type: "text", text: "Done." }]],
      async (req) => {
        if (req.request.tool_name !== "ExitPlanMode") return undefined;
        asked?.();
        return {
          behavior: "allow",
          updatedInput: req.request.input ?? {},
          updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
        };
      },
    );
    await seenAsk;
    const { reviewId } = await pendingIn(ws).catch(() => ({ reviewId: null as string | null }));
    const { seen } = await run.exitText();
    expect(seen?.text).toContain("## Approved Plan:");
    const answered = await until(
      () => api("GET", "/api/reviews?status=answered_elsewhere"),
      (r) => r.body.reviews.length > 0,
      20_000,
    );
    if (reviewId) expect(answered.body.reviews.map((x: { id: string }) => x.id)).toContain(reviewId);
    const pending = (await api("GET", "/api/reviews?status=pending")).body.reviews as { sessionId: string }[];
    expect(pending.filter((p) => p.sessionId === answered.body.reviews[0].sessionId)).toEqual([]);
  }, 150_000);

  it("with --asks, a Bash call's permission ask waits on Plangate's card; 'once' there runs it, 'always' answers the next one unasked", async () => {
    const ws = connectedWorkspace("asks", ["--asks"]);
    const bash = (id: string) => [
      { type: "tool_use" as const, id, name: "Bash", input: { command: "echo ran >> out.txt", description: "count" } },
    ];
    const fake = await startFakeAnthropic({
      turns: [bash("toolu_b1"), bash("toolu_b2"), bash("toolu_b3"), [{ type: "text", text: "Done." }]],
    });
    const home = fs.mkdtempSync(path.join(fixture.workspace, "..", "home-"));
    made.push(home);
    const running = runClaude({
      bin: claude!,
      cwd: ws,
      prompt: "count",
      baseUrl: fake.url,
      home,
      permissionMode: "default",
      timeoutMs: 90_000,
      env: hookEnv(),
    });
    const replyNext = async (reply: Record<string, unknown>) => {
      const asked = await until(
        () => api("GET", "/api/permissions?status=pending"),
        (r) => r.body.permissions.length === 1,
        60_000,
      );
      const ask = asked.body.permissions[0] as { id: string; permission: string; patterns: string[] };
      expect([ask.permission, ask.patterns]).toEqual(["bash", ["echo ran >> out.txt"]]);
      expect((await api("POST", `/api/permissions/${ask.id}/reply`, reply)).status).toBe(200);
    };
    await replyNext({ reply: "once" });
    await replyNext({ reply: "always", scope: "workspace" });
    const run = await running;
    await fake.close();
    // The third call ran on the saved rule: no third ask, and the command ran three times.
    expect(fs.readFileSync(path.join(ws, "out.txt"), "utf8")).toBe("ran\nran\nran\n");
    expect((await api("GET", "/api/permissions?status=pending")).body.permissions).toEqual([]);
    expect(run.controlRequests.filter((c) => c.request.tool_name === "Bash")).toHaveLength(3);
    expect(run.result).toMatchObject({ subtype: "success" });
  }, 150_000);
});
