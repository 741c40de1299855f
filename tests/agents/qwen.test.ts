// Qwen Code's plans on Plangate's desk, end to end with the real CLI (pinned, installed at test time into the
// cache), driven over ACP as an editor drives it, a fake OpenAI-compatible model API and the hooks `plangate connect
// qwen` writes: the plan appears on the desk before Qwen's own prompt, and a person's decision there reaches the
// model; asks from its write and shell tools are answered on the permission card.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, http, realServerFixture } from "../helpers/server";
import { pendingReviews } from "../helpers/pending-reviews";
import { addPersonByScript, approveAs, connectByEmail, signInOverHttp } from "../helpers/people";
import { startFakeOpenAI, type FakeOpenAI, type ScriptStep } from "./fake-openai";
import { replyNextAsk, told, toldAfter, sendBackForVersion2 } from "./told";
import { cliForSuite, QWEN } from "./install-clis";
import { type PermissionAsk, qwenHome, runQwen } from "./run-qwen";

const qwen = await cliForSuite(QWEN);
const fixture = realServerFixture("qwen");
const PLAN = "# Greet\n\n1. Create hello.txt with a greeting.\n";
const PLAN_V2 = "# Greet\n\n1. Create hello.txt with a greeting.\n2. Add a test that reads it.\n";
const EMAIL = "qwen-owner@example.com";
const fakes: FakeOpenAI[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
});

const api = (method: string, route: string, body?: unknown) => http(`${fixture.server().url}${route}`, method, body);
const pendingReview = pendingReviews(api);

let configHome: string | undefined;
let cookie = "";

async function connected(name: string, steps: ScriptStep[], extra: string[] = []) {
  const ws = path.join(fixture.workspace, name);
  fs.mkdirSync(ws, { recursive: true });
  if (configHome === undefined) {
    addPersonByScript(fixture.env, EMAIL, "reviewer");
    configHome = fs.mkdtempSync(path.join(fixture.workspace, "..", "config-"));
    cookie = await signInOverHttp(fixture.server().url, EMAIL);
  }
  const fake = await startFakeOpenAI(steps);
  fakes.push(fake);
  const home = qwenHome(path.join(fixture.workspace, ".."));
  const how = { agent: "qwen", url: fixture.server().url, cwd: ws, configHome, email: EMAIL, env: { HOME: home } };
  const r = connectByEmail(how, extra);
  expect(r.status, r.stderr).toBe(0);
  const settings = JSON.parse(fs.readFileSync(path.join(home, ".qwen", "settings.json"), "utf8"));
  // Qwen's own keys are kept; Plangate's hooks are added beside them, with the timeout in milliseconds.
  expect(settings.security.auth.selectedType).toBe("openai");
  expect(settings.hooks.PermissionRequest[0]).toMatchObject({ matcher: "^exit_plan_mode$" });
  expect(settings.hooks.PermissionRequest[0].hooks[0].timeout).toBe(3_600_000);
  const check = connectByEmail(how, ["--check"]);
  expect(check.stdout).toContain("the hook ran and reached");
  expect(check.status, check.stdout).toBe(0);
  return { ws, home, fake, settingsFile: path.join(home, ".qwen", "settings.json") };
}

const run = (
  ws: string,
  home: string,
  fake: FakeOpenAI,
  answer: "allow" | "reject" | ((ask: PermissionAsk) => "allow" | "reject") = "allow",
) =>
  runQwen({
    bin: qwen as string,
    cwd: ws,
    home,
    fakeUrl: fake.url,
    prompt: "Greet the world",
    configHome: configHome as string,
    answer,
  });

const call = (name: string, args: Record<string, unknown>, id: string): ScriptStep => ({
  toolCalls: [{ name, args, id }],
});
const hello = (name: string) =>
  call("write_file", { file_path: path.join(fixture.workspace, name, "hello.txt"), content: "hello\n" }, "call_w");

describe.skipIf(!qwen)(`Qwen Code ${QWEN.version} reviewed in Plangate (real CLI over ACP, fake model API)`, () => {
  it("approved on the desk with a note: Qwen leaves plan mode, the model reads the note, and writes", async () => {
    const { ws, home, fake } = await connected("approve", [
      call("exit_plan_mode", { plan: PLAN }, "call_plan"),
      hello("approve"),
      { text: "Done." },
    ]);
    const running = run(ws, home, fake);
    const review = await pendingReview(1);
    const session = (await api("GET", `/api/sessions/${review.sessionId}`)).body;
    expect(session.session).toMatchObject({ agent: "qwen", workspace: fs.realpathSync(ws) });
    expect((await api("GET", `/api/reviews/${review.id}`)).body.plan.markdown).toBe(PLAN);
    const approved = await approveAs(fixture.server().url, cookie, review.id, { feedback: "Keep it short." });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const done = await running;
    expect(done.stopReason).toBe("end_turn");
    expect(told(fake, "call_plan")).toContain("User approved");
    expect(toldAfter(fake, "call_plan")).toContain("Keep it short.");
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
  }, 180_000);

  it("sent back with feedback: the model reads it before Qwen's own prompt, revises, and version 2 has its diff", async () => {
    const { ws, home, fake } = await connected("revise", [
      call("exit_plan_mode", { plan: PLAN }, "call_v1"),
      call("exit_plan_mode", { plan: PLAN_V2 }, "call_v2"),
      { text: "Implementing." },
    ]);
    const running = run(ws, home, fake);
    const second = await sendBackForVersion2(api, pendingReview, {
      feedback: "Add a test.",
      v1: PLAN,
      added: "+2. Add a test that reads it.",
    });
    expect((await approveAs(fixture.server().url, cookie, second.id)).status).toBe(200);
    const done = await running;
    expect(done.stopReason).toBe("end_turn");
    expect(told(fake, "call_v1")).toContain("Add a test.");
    expect(told(fake, "call_v2")).toContain("User approved");
    // Qwen's own prompt came only for the version the desk approved.
    expect(done.prompts).toHaveLength(1);
  }, 180_000);

  it("with --asks, its write and shell calls wait on the permission card: one allowed runs, one refused does not", async () => {
    const { ws, home, fake } = await connected(
      "asks",
      [
        call("exit_plan_mode", { plan: PLAN }, "call_plan"),
        hello("asks"),
        call("run_shell_command", { command: "touch made-by-shell", description: "mark" }, "call_bash"),
        { text: "Done." },
      ],
      ["--asks"],
    );
    // The client says yes to every prompt of Qwen's own: what runs after the plan, runs on the desk's answer.
    const running = run(ws, home, fake);
    const review = await pendingReview(1);
    expect((await approveAs(fixture.server().url, cookie, review.id)).status).toBe(200);
    await replyNextAsk(api, "edit", { reply: "once" });
    await replyNextAsk(api, "bash", { reply: "reject", message: "No shell here, please." });
    await running;
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
    expect(fs.existsSync(path.join(ws, "made-by-shell"))).toBe(false);
    expect(told(fake, "call_bash")).toContain("No shell here, please.");
  }, 180_000);

  it("a server that cannot be reached: the plan is refused before Qwen's own prompt", async () => {
    const { ws, home, fake, settingsFile } = await connected("unreachable", [
      call("exit_plan_mode", { plan: PLAN }, "call_plan"),
      { text: "Stopped." },
    ]);
    const dead = `http://127.0.0.1:${await freePort()}`;
    fs.writeFileSync(settingsFile, fs.readFileSync(settingsFile, "utf8").replace(/--url '[^']*'/g, `--url '${dead}'`));
    const done = await run(ws, home, fake);
    expect(told(fake, "call_plan")).toMatch(/could not be reached/);
    expect(done.prompts).toHaveLength(0);
  }, 180_000);

  it("an editor that approves Qwen's prompt by itself cannot approve a plan the desk did not", async () => {
    // The attack: Plangate's PermissionRequest hook is gone (or failed, which Qwen takes as no decision), and the
    // client answers Qwen's own prompt with yes. The PreToolUse hook still finds no approval on Plangate: refused.
    const { ws, home, fake, settingsFile } = await connected("self-approved", [
      call("exit_plan_mode", { plan: PLAN }, "call_plan"),
      { text: "Stopped." },
    ]);
    const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8"));
    delete settings.hooks.PermissionRequest;
    fs.writeFileSync(settingsFile, JSON.stringify(settings));
    const done = await run(ws, home, fake);
    expect(done.prompts).toHaveLength(1);
    expect(told(fake, "call_plan")).toContain("not approved on Plangate");
    expect(told(fake, "call_plan")).not.toContain("User approved");
  }, 180_000);
});
