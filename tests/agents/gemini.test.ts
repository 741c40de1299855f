// Gemini CLI's plans on Plangate's desk, end to end with the real CLI (pinned, installed at test time into the
// cache) and a fake Gemini API: `plangate connect gemini` writes the user-wide hooks, Gemini runs headless in plan
// mode, the plan appears on the desk, and a person's decision there reaches the model; asks from its write and
// shell tools are answered on the permission card.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { http, realServerFixture } from "../helpers/server";
import { pendingReviews } from "../helpers/pending-reviews";
import { addPersonByScript, approveAs, connectByEmail, signInOverHttp } from "../helpers/people";
import { cliForSuite, GEMINI_CLI } from "./install-clis";
import { call, lastToolResult, startFakeGemini, type GeminiTurn } from "./fake-gemini";
import { geminiHome, runGemini } from "./run-gemini";
import { replyNextAsk, sendBackForVersion2 } from "./told";

const gemini = await cliForSuite(GEMINI_CLI);
const fixture = realServerFixture("gemini");
const PLAN = "# Greet\n\n1. Create hello.txt with a greeting.\n";
const PLAN_V2 = "# Greet\n\n1. Create hello.txt with a greeting.\n2. Add a test that reads it.\n";
const EMAIL = "gemini-owner@example.com";
const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

const api = (method: string, route: string, body?: unknown) => http(`${fixture.server().url}${route}`, method, body);

let configHome: string | undefined;
let cookie = "";

/** A project inside Plangate's roots and a Gemini HOME, connected with `plangate connect gemini --email`. */
async function connected(name: string, extra: string[] = []) {
  const ws = path.join(fixture.workspace, name);
  fs.mkdirSync(ws, { recursive: true });
  if (configHome === undefined) {
    addPersonByScript(fixture.env, EMAIL, "reviewer");
    configHome = fs.mkdtempSync(path.join(fixture.workspace, "..", "config-"));
    cookie = await signInOverHttp(fixture.server().url, EMAIL);
  }
  const home = geminiHome(path.join(fixture.workspace, ".."));
  made.push(home);
  // Gemini runs hooks only in a folder it trusts: trusted the way a person's answer to its prompt records it.
  fs.writeFileSync(
    path.join(home, ".gemini", "trustedFolders.json"),
    JSON.stringify({ [fs.realpathSync(ws)]: "TRUST_FOLDER" }),
  );
  const r = connectByEmail(
    { agent: "gemini", url: fixture.server().url, cwd: ws, configHome, email: EMAIL, env: { HOME: home } },
    extra,
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain(`agent token for ${EMAIL} saved`);
  const settings = JSON.parse(fs.readFileSync(path.join(home, ".gemini", "settings.json"), "utf8"));
  // Gemini's own keys are kept; Plangate's hooks are added beside them.
  expect(settings.security.auth.selectedType).toBe("gemini-api-key");
  expect(settings.hooks.BeforeTool[0].matcher).toBe("^exit_plan_mode$");
  // --check proves the hook fires here: its entry, this project connected, Gemini's trust, the command run as is.
  const check = connectByEmail(
    { agent: "gemini", url: fixture.server().url, cwd: ws, configHome, email: EMAIL, env: { HOME: home } },
    ["--check"],
  );
  expect(check.stdout).toContain(`Gemini trusts ${fs.realpathSync(ws)}`);
  expect(check.stdout).toContain("the hook ran and reached");
  expect(check.status, check.stdout).toBe(0);
  return { ws, home };
}

async function plan(ws: string, home: string, turns: GeminiTurn[], approvalMode: "plan" | "yolo" = "plan") {
  const fake = await startFakeGemini(turns);
  const running = runGemini({
    bin: gemini as string,
    cwd: ws,
    home,
    fakeUrl: fake.url,
    prompt: "Greet the world",
    approvalMode,
    configHome: configHome as string,
  });
  return { fake, running };
}

const pendingReview = pendingReviews(api);

const writePlan = (text: string) => [call("write_file", { file_path: "plan.md", content: text })];
const exitPlan = [call("exit_plan_mode", { plan_filename: "plan.md" })];

describe.skipIf(!gemini)(`Gemini CLI ${GEMINI_CLI.version} reviewed in Plangate (real CLI, fake Gemini API)`, () => {
  it("approved on the desk with a note: Gemini goes on, and the model reads the note with the approval", async () => {
    const { ws, home } = await connected("approve");
    const { fake, running } = await plan(ws, home, [writePlan(PLAN), exitPlan, [{ text: "Implementing." }]]);
    const review = await pendingReview(1);
    const session = (await api("GET", `/api/sessions/${review.sessionId}`)).body;
    expect(session.session).toMatchObject({ agent: "gemini" });
    expect(session.session.title).toContain("Greet");
    const details = (await api("GET", `/api/reviews/${review.id}`)).body;
    expect(details.plan.markdown).toBe(PLAN);
    expect(details.plan.receives).toMatchObject({ agent: "gemini", editedPlan: true, notesOnApproval: true });
    const approved = await approveAs(fixture.server().url, cookie, review.id, { feedback: "Keep the greeting short." });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const run = await running;
    await fake.close();
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    const told = lastToolResult(fake.requests[2]);
    expect(told.name).toBe("exit_plan_mode");
    expect(told.output).toContain("Plan approved");
    // The AfterTool hook's context: what Plangate's own agent would read, the note included.
    expect(told.output).toContain("Keep the greeting short.");
    const timeline = JSON.stringify((await api("GET", `/api/sessions/${review.sessionId}/events`)).body);
    expect(timeline).toContain("gemini-owner");
  }, 180_000);

  it("sent back with feedback: the model reads it, revises, and a second version appears with its diff", async () => {
    const { ws, home } = await connected("revise");
    const { fake, running } = await plan(ws, home, [
      writePlan(PLAN),
      exitPlan,
      writePlan(PLAN_V2),
      exitPlan,
      [{ text: "Implementing." }],
    ]);
    const second = await sendBackForVersion2(api, pendingReview, {
      feedback: "Add a test step.",
      v1: PLAN,
      added: "+2. Add a test that reads it.",
    });
    expect((await approveAs(fixture.server().url, cookie, second.id)).status).toBe(200);
    const run = await running;
    await fake.close();
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(lastToolResult(fake.requests[2]).error).toContain("Add a test step.");
    expect(lastToolResult(fake.requests[4]).output).toContain("Plan approved");
  }, 180_000);

  it("asks from its write and shell tools wait on the permission card: one allowed runs, one refused does not", async () => {
    const { ws, home } = await connected("asks", ["--asks"]);
    const { fake, running } = await plan(
      ws,
      home,
      [
        [call("write_file", { file_path: "hello.txt", content: "hello\n" })],
        [call("run_shell_command", { command: "touch made-by-shell", description: "mark" })],
        [{ text: "Done." }],
      ],
      "yolo",
    );
    const replyNext = (permission: string, reply: Record<string, unknown>) => replyNextAsk(api, permission, reply);
    await replyNext("edit", { reply: "once" });
    await replyNext("bash", { reply: "reject", message: "No shell here, please." });
    const run = await running;
    await fake.close();
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
    expect(fs.existsSync(path.join(ws, "made-by-shell"))).toBe(false);
    expect(lastToolResult(fake.requests[2]).error).toContain("No shell here, please.");
  }, 180_000);
});
