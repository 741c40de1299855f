// GitHub Copilot CLI's plans on Plangate's desk, end to end with the real CLI (pinned, installed at test time into
// the cache), a fake OpenAI-compatible model API and the hook `plangate connect copilot` writes: Copilot runs
// headless in plan mode, writes plan.md and calls exit_plan_mode, the plan appears on the desk, and a person's
// decision there reaches the model; asks from its shell and write tools are answered on the permission card.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, http, realServerFixture } from "../helpers/server";
import { pendingReviews } from "../helpers/pending-reviews";
import { addPersonByScript, approveAs, connectByEmail, signInOverHttp } from "../helpers/people";
import {
  answersCall,
  type ChatRequest,
  messageText,
  startFakeOpenAI,
  toolResult,
  type FakeOpenAI,
  type ScriptStep,
} from "./fake-openai";
import { replyNextAsk, told, toldAfter, sendBackForVersion2 } from "./told";
import { cliForSuite, COPILOT } from "./install-clis";
import { copilotHome, runCopilot, sessionFolder } from "./run-copilot";

const copilot = await cliForSuite(COPILOT);
const fixture = realServerFixture("copilot");
const PLAN = "# Greet\n\n1. Create hello.txt with a greeting.\n";
const STEP_2 = "2. Add a test that reads it.\n";
const EMAIL = "copilot-owner@example.com";
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
  const home = copilotHome(path.join(fixture.workspace, ".."));
  const how = { agent: "copilot", url: fixture.server().url, cwd: ws, configHome, email: EMAIL, env: { HOME: home } };
  const r = connectByEmail(how, extra);
  expect(r.status, r.stderr).toBe(0);
  const hooks = JSON.parse(fs.readFileSync(path.join(home, ".copilot", "hooks", "plangate.json"), "utf8"));
  expect(hooks.hooks.preToolUse[0].matcher).toBe("exit_plan_mode");
  const check = connectByEmail(how, ["--check"]);
  expect(check.stdout).toContain("the hook ran and reached");
  expect(check.status, check.stdout).toBe(0);
  return { ws, home, fake };
}

const start = (ws: string, home: string, fake: FakeOpenAI, args: string[] = []) =>
  runCopilot({
    bin: copilot as string,
    cwd: ws,
    home,
    fakeUrl: fake.url,
    prompt: "Greet the world",
    configHome: configHome as string,
    args,
  });

const call = (name: string, args: Record<string, unknown>, id: string): ScriptStep => ({
  toolCalls: [{ name, args, id }],
});
const system = (req: ChatRequest) => messageText(req.messages[0] ?? { role: "system" });
/** The model writes its plan where Copilot's plan mode told it to. */
const writePlan =
  (text: string): ScriptStep =>
  (req) => ({
    toolCalls: [{ name: "create", args: { path: path.join(sessionFolder(system(req)), "plan.md"), file_text: text } }],
  });
const finish: ScriptStep = call("task_complete", { summary: "Greeted." }, "call_done");

describe.skipIf(!copilot)(
  `GitHub Copilot CLI ${COPILOT.version} reviewed in Plangate (real CLI, fake model API)`,
  () => {
    it("approved on the desk with a note: Copilot leaves plan mode, the model reads the note, and writes", async () => {
      const { ws, home, fake } = await connected("approve", [
        writePlan(PLAN),
        call("exit_plan_mode", { summary: "- greet" }, "call_plan"),
        call("create", { path: path.join(fixture.workspace, "approve", "hello.txt"), file_text: "hello\n" }, "call_w"),
        finish,
      ]);
      const running = start(ws, home, fake, ["--allow-all-tools"]);
      const review = await pendingReview(1);
      const session = (await api("GET", `/api/sessions/${review.sessionId}`)).body;
      expect(session.session).toMatchObject({ agent: "copilot", workspace: fs.realpathSync(ws) });
      const details = (await api("GET", `/api/reviews/${review.id}`)).body;
      expect(details.plan.markdown).toBe(PLAN);
      expect(details.plan.receives).toMatchObject({ agent: "copilot", notesOnApproval: true });
      const approved = await approveAs(fixture.server().url, cookie, review.id, { feedback: "Keep it short." });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const done = await running.done;
      expect(done.status, done.stderr.slice(-2000)).toBe(0);
      expect(told(fake, "call_plan")).toContain("Plan approved");
      expect(toldAfter(fake, "call_plan")).toContain("Keep it short.");
      expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
    }, 180_000);

    it("a writing command before the plan is approved is refused, whatever Copilot's plan mode makes of it", async () => {
      // The attack: Copilot's own plan-mode check lets many writing commands through (an interpreter writing a file).
      const sneak = `node -e "require('fs').writeFileSync('pwned.txt','x')"`;
      const { ws, home, fake } = await connected("sneak", [
        writePlan(PLAN),
        call("bash", { command: sneak, description: "look around" }, "call_sneak"),
        call("exit_plan_mode", { summary: "- greet" }, "call_plan"),
        finish,
      ]);
      const running = start(ws, home, fake, ["--allow-all-tools"]);
      expect((await approveAs(fixture.server().url, cookie, (await pendingReview(1)).id)).status).toBe(200);
      const done = await running.done;
      expect(done.status, done.stderr.slice(-2000)).toBe(0);
      expect(told(fake, "call_sneak")).toContain("not allowed until your plan is approved");
      expect(fs.existsSync(path.join(ws, "pwned.txt"))).toBe(false);
    }, 180_000);

    it("sent back with feedback: the model reads it, revises plan.md, and a second version appears with its diff", async () => {
      const { ws, home, fake } = await connected("revise", [
        writePlan(PLAN),
        call("exit_plan_mode", { summary: "- greet" }, "call_v1"),
        (req) => ({
          toolCalls: [
            {
              name: "edit",
              args: { path: path.join(sessionFolder(system(req)), "plan.md"), old_str: PLAN, new_str: PLAN + STEP_2 },
            },
          ],
        }),
        call("exit_plan_mode", { summary: "- greet\n- test" }, "call_v2"),
        call("create", { path: path.join(fixture.workspace, "revise", "hello.txt"), file_text: "hello\n" }, "call_w"),
        finish,
      ]);
      const running = start(ws, home, fake, ["--allow-all-tools"]);
      const second = await sendBackForVersion2(api, pendingReview, {
        feedback: "Add a test.",
        v1: PLAN,
        added: "+2. Add a test that reads it.",
      });
      expect((await approveAs(fixture.server().url, cookie, second.id)).status).toBe(200);
      const done = await running.done;
      expect(done.status, done.stderr.slice(-2000)).toBe(0);
      expect(told(fake, "call_v1")).toContain("Denied by preToolUse hook");
      expect(told(fake, "call_v1")).toContain("Add a test.");
      expect(told(fake, "call_v2")).toContain("Plan approved");
    }, 180_000);

    it("with --asks, its shell and write calls wait on the permission card: one allowed runs, one refused does not", async () => {
      const { ws, home, fake } = await connected(
        "asks",
        [
          writePlan(PLAN),
          call("exit_plan_mode", { summary: "- greet" }, "call_plan"),
          call("create", { path: path.join(fixture.workspace, "asks", "hello.txt"), file_text: "hello\n" }, "call_w"),
          call("bash", { command: "touch made-by-shell", description: "mark" }, "call_bash"),
          finish,
        ],
        ["--asks"],
      );
      const running = start(ws, home, fake);
      const review = await pendingReview(1);
      expect((await approveAs(fixture.server().url, cookie, review.id)).status).toBe(200);
      await replyNextAsk(api, "edit", { reply: "once" });
      await replyNextAsk(api, "bash", { reply: "reject", message: "No shell here, please." });
      const done = await running.done;
      expect(done.status, done.stderr.slice(-2000)).toBe(0);
      expect(fs.readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello\n");
      expect(fs.existsSync(path.join(ws, "made-by-shell"))).toBe(false);
      expect(told(fake, "call_bash")).toContain("No shell here, please.");
    }, 180_000);

    // Copilot approves a plan whose hook prints nothing or times out: Plangate's hook answers deny instead. (A turn
    // that ends in plan mode never exits, so the run is stopped once the model has been told.)
    it.each([
      [
        "a server that cannot be reached",
        async () => `--url 'http://127.0.0.1:${await freePort()}'`,
        /could not be reached/,
      ],
      [
        "no decision before the hook's deadline",
        async () => "'--deadline' '2'",
        /No decision on Plangate|before the hook's deadline/,
      ],
    ])(
      "%s: the plan is refused, never approved",
      async (_name, change, reason) => {
        const { ws, home, fake } = await connected(`fault-${fakes.length}`, [
          writePlan(PLAN),
          call("exit_plan_mode", { summary: "- greet" }, "call_plan"),
          { text: "Stopped." },
        ]);
        const file = path.join(home, ".copilot", "hooks", "plangate.json");
        const replacement = await change();
        const text = fs
          .readFileSync(file, "utf8")
          .replace(replacement.startsWith("--url") ? /--url '[^']*'/ : /'--deadline' '[^']*'/, replacement);
        expect(text).toContain(replacement);
        fs.writeFileSync(file, text);
        const running = start(ws, home, fake);
        try {
          const after = await fake.waitFor(answersCall("call_plan"), 60_000);
          expect(toolResult(after.body, "call_plan")).toMatch(reason);
          expect(toolResult(after.body, "call_plan")).not.toContain("Plan approved");
        } finally {
          running.stop();
          await running.done.catch(() => undefined);
        }
      },
      180_000,
    );
  },
);
