// Codex's plans on Plangate's desk, end to end with the real CLI (pinned, installed at test time into the cache)
// and the fake Responses API: `plangate connect codex` writes the user hooks and their trust as Codex records it,
// `codex app-server` runs a turn in plan mode, the plan appears on the desk, and a person's decision there either
// lets the turn end or sends the feedback back into it; asks from its shell are answered on the permission card.
import fs from "node:fs";
import { parse } from "smol-toml";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { http, realServerFixture } from "../helpers/server";
import { pendingReviews } from "../helpers/pending-reviews";
import { addPersonByScript, approveAs, connectByEmail, signInOverHttp } from "../helpers/people";
import { CODEX, cliForSuite } from "./install-clis";
import { type ResponsesScriptStep, startFakeOpenAIResponses } from "./fake-openai-responses";
import { AppServer, codexHome } from "./run-codex";
import { until } from "../helpers/poll";

const codex = await cliForSuite(CODEX);
const fixture = realServerFixture("codex");
const PLAN = "# Greet\n\n1. Create hello.txt with a greeting.\n";
const PLAN_V2 = "# Greet\n\n1. Create hello.txt with a greeting.\n2. Add a test that reads it.\n";
const EMAIL = "codex-owner@example.com";
const made: AppServer[] = [];
afterAll(() => {
  for (const s of made) s.stop();
});

const api = (method: string, route: string, body?: unknown) => http(`${fixture.server().url}${route}`, method, body);

let configHome: string | undefined;
let cookie = "";
const proposing = (plan: string) => ({ text: `Here is my plan.\n\n<proposed_plan>\n${plan}</proposed_plan>\n` });

/** A project, a CODEX_HOME on the fake, `plangate connect codex --email`, and a running app-server. */
async function connected(name: string, turns: ResponsesScriptStep[], extra: string[] = []) {
  const ws = path.join(fixture.workspace, name);
  fs.mkdirSync(ws, { recursive: true });
  const root = path.join(fixture.workspace, "..");
  if (configHome === undefined) {
    addPersonByScript(fixture.env, EMAIL, "reviewer");
    configHome = fs.mkdtempSync(path.join(root, "config-"));
    cookie = await signInOverHttp(fixture.server().url, EMAIL);
  }
  const fake = await startFakeOpenAIResponses(turns);
  const home = codexHome(root, fake.url);
  const before = fs.readFileSync(path.join(home, "config.toml"), "utf8");
  const r = connectByEmail(
    { agent: "codex", url: fixture.server().url, cwd: ws, configHome, email: EMAIL, env: { CODEX_HOME: home } },
    extra,
  );
  expect(r.status, r.stderr).toBe(0);
  // Codex's own settings are kept, line for line; the hook's trust is recorded beside them (and Codex, reading the
  // file, runs the hook: the tests below see its plans on the desk).
  const toml = fs.readFileSync(path.join(home, "config.toml"), "utf8");
  for (const line of before.split("\n").filter(Boolean)) expect(toml).toContain(line);
  const ours = expect.stringMatching(/^sha256:[0-9a-f]{64}$/);
  const state = (parse(toml) as { hooks: { state: Record<string, { trusted_hash: string }> } }).hooks.state;
  const trust = Object.fromEntries(
    Object.entries(state).map(([k, v]) => [k.replace(home, "$CODEX_HOME"), v.trusted_hash]),
  );
  expect(trust).toEqual({
    "/elsewhere/hooks.json:stop:0:0": `sha256:${"0".repeat(64)}`,
    "$CODEX_HOME/hooks.json:stop:0:0": ours,
    ...(extra.includes("--asks") ? { "$CODEX_HOME/hooks.json:permission_request:0:0": ours } : {}),
  });
  const check = connectByEmail(
    { agent: "codex", url: fixture.server().url, cwd: ws, configHome, email: EMAIL, env: { CODEX_HOME: home } },
    ["--check"],
  );
  expect(check.stdout, check.stderr).toContain("the hook ran and reached");
  expect(check.status, check.stdout).toBe(0);
  const tmp = fs.mkdtempSync(path.join(root, "codex-tmp-"));
  const server = AppServer.start({ bin: codex as string, home, tmp, configHome });
  made.push(server);
  await server.init();
  return { ws, fake, server };
}

const pendingReview = pendingReviews(api);

const lastUserText = (body: { input?: { role?: string; content?: unknown }[] } | null) => {
  const user = (body?.input ?? []).filter((i) => i.role === "user").at(-1);
  return Array.isArray(user?.content) ? (user.content as { text?: string }[]).map((c) => c.text ?? "").join("") : "";
};

describe.skipIf(!codex)(
  `Codex ${CODEX.version} reviewed in Plangate (real CLI through app-server, fake Responses API)`,
  () => {
    it("a plan-mode turn's plan waits on the desk; the approval lets the turn end and nothing more reaches the model", async () => {
      const { ws, fake, server } = await connected("approve", [proposing(PLAN)]);
      const done = server.turn(ws, "Greet the world", { plan: true });
      const review = await pendingReview(1);
      const session = (await api("GET", `/api/sessions/${review.sessionId}`)).body;
      expect(session.session).toMatchObject({ agent: "codex" });
      const details = (await api("GET", `/api/reviews/${review.id}`)).body;
      expect(details.plan.markdown).toBe(PLAN);
      // The card says what Codex can take with an approval (measured: only the end of its turn), and offers that.
      expect(details.plan.receives).toMatchObject({ agent: "codex", editedPlan: false, notesOnApproval: false });
      const noted = await approveAs(fixture.server().url, cookie, review.id, { feedback: "Keep it short." });
      expect(noted.status).toBe(400);
      expect((await api("GET", `/api/reviews/${review.id}`)).body.review.status).toBe("pending");
      expect((await approveAs(fixture.server().url, cookie, review.id)).status).toBe(200);
      const completed = await done;
      expect(completed.params.turn.status).toBe("completed");
      expect(fake.requests.filter((r) => r.path === "/v1/responses")).toHaveLength(1);
      await fake.close();
    }, 240_000);

    it("sent back with feedback: the feedback is the model's next message in the same turn; the revision is version 2 with its diff", async () => {
      const { ws, fake, server } = await connected("revise", [proposing(PLAN), proposing(PLAN_V2)]);
      const done = server.turn(ws, "Greet the world", { plan: true });
      const first = await pendingReview(1);
      expect(
        (await api("POST", `/api/reviews/${first.id}/decision`, { decision: "reject", feedback: "Add a test step." }))
          .status,
      ).toBe(200);
      const second = await pendingReview(2);
      expect(second.sessionId).toBe(first.sessionId);
      const details = (await api("GET", `/api/reviews/${second.id}`)).body;
      expect(details.plan.previous).toEqual({ version: 1, markdown: PLAN });
      expect(details.plan.diff).toContain("+2. Add a test that reads it.");
      expect(lastUserText(fake.requests[1]?.body ?? null)).toContain("Add a test step.");
      expect((await approveAs(fixture.server().url, cookie, second.id)).status).toBe(200);
      expect((await done).params.turn.status).toBe("completed");
      await fake.close();
    }, 240_000);

    it("sent back, and the model answers without a new plan: the rejected plan is not put on the desk again; the turn ends", async () => {
      const { ws, fake, server } = await connected("no-revision", [proposing(PLAN), { text: "Understood." }]);
      const done = server.turn(ws, "Greet the world", { plan: true });
      const first = await pendingReview(1);
      expect(
        (await api("POST", `/api/reviews/${first.id}/decision`, { decision: "reject", feedback: "Think again." }))
          .status,
      ).toBe(200);
      expect((await done).params.turn.status).toBe("completed");
      expect(lastUserText(fake.requests[1]?.body ?? null)).toContain("Think again.");
      expect((await api("GET", "/api/reviews?status=pending")).body.reviews).toEqual([]);
      await fake.close();
    }, 240_000);

    it("asks from its shell wait on the permission card: one allowed runs, one refused does not and the model is told why", async () => {
      const exec = (cmd: string) => ({ toolCalls: [{ name: "exec_command", args: { cmd } }] });
      const { ws, fake, server } = await connected(
        "asks",
        [exec("touch made-by-codex"), exec("touch refused-by-person"), { text: "Done." }],
        ["--asks"],
      );
      // Codex asks before running a command under the "untrusted" policy: its PermissionRequest hook goes first.
      const done = server.turn(ws, "Make two files", {
        thread: { approvalPolicy: "untrusted", sandbox: "workspace-write" },
      });
      const replyNext = async (reply: Record<string, unknown>, command: string) => {
        const asked = await until(
          () => api("GET", "/api/permissions?status=pending"),
          (r) => r.body.permissions.length === 1,
          90_000,
        );
        const ask = asked.body.permissions[0] as { id: string; permission: string; patterns: string[] };
        expect([ask.permission, ask.patterns]).toEqual(["bash", [command]]);
        expect((await api("POST", `/api/permissions/${ask.id}/reply`, reply)).status).toBe(200);
      };
      await replyNext({ reply: "once" }, "touch made-by-codex");
      await replyNext({ reply: "reject", message: "Not that one." }, "touch refused-by-person");
      expect((await done).params.turn.status).toBe("completed");
      expect(fs.existsSync(path.join(ws, "made-by-codex"))).toBe(true);
      expect(fs.existsSync(path.join(ws, "refused-by-person"))).toBe(false);
      expect(JSON.stringify(fake.requests[2]?.body)).toContain("Not that one.");
      await fake.close();
    }, 240_000);
  },
);
