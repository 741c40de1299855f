// Factory Droid's specs on Plangate's desk, end to end with the real CLI (pinned, installed at test time into the
// cache), a fake OpenAI-compatible model API and the hooks `plangate connect droid` writes: Droid runs headless in
// spec mode, the plan appears on the desk, and a person's decision there reaches the model; asks from its shell and
// write tools are answered on the permission card.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { http, realServerFixture } from "../helpers/server";
import { pendingReviews } from "../helpers/pending-reviews";
import { addPersonByScript, approveAs, connectByEmail, signInOverHttp } from "../helpers/people";
import { freePort } from "../helpers/server";
import { startFakeOpenAI, type FakeOpenAI, type ScriptStep } from "./fake-openai";
import { replyNextAsk, told, toldAfter, sendBackForVersion2 } from "./told";
import { cliForSuite, DROID } from "./install-clis";
import { droidHome, runDroid } from "./run-droid";

const droid = await cliForSuite(DROID);
const fixture = realServerFixture("droid");
const PLAN = "# Greet\n\n1. Create hello.txt with a greeting.\n";
const PLAN_V2 = "# Greet\n\n1. Create hello.txt with a greeting.\n2. Add a test that reads it.\n";
const EMAIL = "droid-owner@example.com";
const fakes: FakeOpenAI[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
});

const api = (method: string, route: string, body?: unknown) => http(`${fixture.server().url}${route}`, method, body);
const pendingReview = pendingReviews(api);

let configHome: string | undefined;
let cookie = "";

/** A project inside Plangate's roots, a fake model and a Droid HOME, connected with `plangate connect droid`. */
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
  const home = droidHome(path.join(fixture.workspace, ".."), fake.url);
  fs.writeFileSync(path.join(home, ".factory", "hooks.json"), JSON.stringify({ Stop: [{ hooks: [] }] }));
  const how = { agent: "droid", url: fixture.server().url, cwd: ws, configHome, email: EMAIL, env: { HOME: home } };
  const r = connectByEmail(how, extra);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain(`agent token for ${EMAIL} saved`);
  const hooks = JSON.parse(fs.readFileSync(path.join(home, ".factory", "hooks.json"), "utf8"));
  // Droid reads the events at the top level; the person's own entries stay.
  expect(hooks.Stop).toEqual([{ hooks: [] }]);
  expect(hooks.PreToolUse[0].matcher).toBe("^ExitSpecMode$");
  const check = connectByEmail(how, ["--check"]);
  expect(check.stdout).toContain("the hook ran and reached");
  expect(check.status, check.stdout).toBe(0);
  return { ws, home, fake };
}

const run = (ws: string, home: string) =>
  runDroid({ bin: droid as string, cwd: ws, home, prompt: "Greet the world", configHome: configHome as string });

const call = (name: string, args: Record<string, unknown>, id: string): ScriptStep => ({
  toolCalls: [{ name, args, id }],
});

describe.skipIf(!droid)(`Factory Droid ${DROID.version} reviewed in Plangate (real CLI, fake model API)`, () => {
  it("approved on the desk with a note: Droid leaves spec mode, the model reads the note, and writes", async () => {
    const { ws, home, fake } = await connected("approve", [
      call("ExitSpecMode", { title: "Greet", plan: PLAN }, "call_plan"),
      call(
        "Create",
        { file_path: path.join(fixture.workspace, "approve", "hello.txt"), content: "hello\n" },
        "call_write",
      ),
      { text: "Done." },
    ]);
    const running = run(ws, home);
    const review = await pendingReview(1);
    const session = (await api("GET", `/api/sessions/${review.sessionId}`)).body;
    expect(session.session).toMatchObject({ agent: "droid", workspace: fs.realpathSync(ws) });
    const details = (await api("GET", `/api/reviews/${review.id}`)).body;
    expect(details.plan.markdown).toBe(PLAN);
    expect(details.plan.receives).toMatchObject({ agent: "droid", notesOnApproval: true });
    const approved = await approveAs(fixture.server().url, cookie, review.id, { feedback: "Keep it short." });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const done = await running;
    expect(done.status, done.stderr.slice(-2000)).toBe(0);
    expect(told(fake, "call_plan")).toContain('"approved":true');
    // The PostToolUse hook's context: what Plangate's own agent would read, the note included.
    expect(toldAfter(fake, "call_plan")).toContain("Keep it short.");
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
  }, 180_000);

  it("sent back with feedback: the model reads it, revises, and a second version appears with its diff", async () => {
    const { ws, home, fake } = await connected("revise", [
      call("ExitSpecMode", { plan: PLAN }, "call_v1"),
      call("ExitSpecMode", { plan: PLAN_V2 }, "call_v2"),
      { text: "Implementing." },
    ]);
    const running = run(ws, home);
    const second = await sendBackForVersion2(api, pendingReview, {
      feedback: "Add a test.",
      v1: PLAN,
      added: "+2. Add a test that reads it.",
    });
    expect((await approveAs(fixture.server().url, cookie, second.id)).status).toBe(200);
    const done = await running;
    expect(done.status, done.stderr.slice(-2000)).toBe(0);
    expect(told(fake, "call_v1")).toContain("Add a test.");
    expect(told(fake, "call_v1")).toContain("ExitSpecMode");
    expect(told(fake, "call_v1")).not.toContain("exit_plan_mode");
    expect(told(fake, "call_v2")).toContain('"approved":true');
  }, 180_000);

  it("with --asks, its shell and write calls wait on the permission card: one allowed runs, one refused does not", async () => {
    const { ws, home, fake } = await connected(
      "asks",
      [
        call("ExitSpecMode", { plan: PLAN }, "call_plan"),
        call(
          "Create",
          { file_path: path.join(fixture.workspace, "asks", "hello.txt"), content: "hello\n" },
          "call_write",
        ),
        call("Execute", { command: "touch made-by-shell", riskLevel: "low", riskLevelReason: "mark" }, "call_bash"),
        { text: "Done." },
      ],
      ["--asks"],
    );
    const running = run(ws, home);
    const review = await pendingReview(1);
    expect((await approveAs(fixture.server().url, cookie, review.id)).status).toBe(200);
    await replyNextAsk(api, "edit", { reply: "once" });
    await replyNextAsk(api, "bash", { reply: "reject", message: "No shell here, please." });
    const done = await running;
    expect(done.status, done.stderr.slice(-2000)).toBe(0);
    expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
    expect(fs.existsSync(path.join(ws, "made-by-shell"))).toBe(false);
    expect(told(fake, "call_bash")).toContain("No shell here, please.");
  }, 180_000);

  // Droid approves a plan whose hook fails, prints nothing or times out: Plangate's hook answers deny instead.
  it.each([
    [
      "a server that cannot be reached",
      async () => ["--url", `http://127.0.0.1:${await freePort()}`],
      /could not be reached/,
    ],
    [
      "no decision before the hook's deadline",
      async () => ["--deadline", "2"],
      /No decision on Plangate|before the hook's deadline/,
    ],
  ])(
    "%s: the plan is refused, never approved",
    async (_name, change, reason) => {
      const { ws, home, fake } = await connected(`fault-${fakes.length}`, [
        call("ExitSpecMode", { plan: PLAN }, "call_plan"),
        { text: "Stopped." },
      ]);
      const file = path.join(home, ".factory", "hooks.json");
      const [flag, value] = await change();
      const hooks = fs
        .readFileSync(file, "utf8")
        .replace(
          flag === "--url" ? /--url '[^']*'/g : /'--deadline' '[^']*'/g,
          flag === "--url" ? `--url '${value}'` : `'--deadline' '${value}'`,
        );
      expect(hooks).toContain(`'${value}'`);
      fs.writeFileSync(file, hooks);
      const done = await run(ws, home);
      expect(done.status, done.stderr.slice(-2000)).toBe(0);
      expect(told(fake, "call_plan")).toMatch(reason);
      expect(told(fake, "call_plan")).not.toContain('"approved":true');
    },
    180_000,
  );
});
