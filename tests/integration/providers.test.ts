// Plangate's own agent through the real AI SDK providers (anthropic:, openai-compatible:, openai:) against local
// servers that speak each provider's wire protocol: the whole plan flow, and what each provider actually sent.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, settle, testApi, type Api } from "../helpers/api";
import { PLAN_V1, PLAN_V2, ofType, planKit } from "../helpers/plan-kit";
import { RIGS, type Rig, type Step } from "../helpers/provider-rigs";
import { loadSessionContext } from "../../lib/agent/session-context";
import { modelTools } from "../../lib/agent/tool-registry";
import { planModeSection } from "../../lib/plan/plan-prompt";
import { getSession } from "../../lib/session/get-session";
import { listVerifications } from "../../lib/verify/verify-session";
import { waitFor } from "../helpers/poll";

type Fake = Awaited<ReturnType<Rig["start"]>>;

const SECRETS = {
  AWS_SECRET_ACCESS_KEY: "canary-aws-5f1d0c9e7b2a",
  PLANGATE_TOKEN: "canary-token-9b8c7d6e5f4a3b2c",
  GITHUB_TOKEN: "canary-ghp-1a2b3c4d5e6f",
  PLANGATE_WEBHOOK_SECRET: "canary-webhook-secret-77aa",
};
const KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-test-canary-0001",
  OPENAI_API_KEY: "sk-openai-test-canary-0002",
  PLANGATE_API_KEY: "sk-compat-test-canary-0003",
};

const FEEDBACK = "Add a rollback step, please.";
const DONE_TS = "export const done = true;\n";
const TURNS: Step[] = [
  { text: "Let me look first.", calls: [{ id: "call_read", name: "read", args: { path: "README.md" } }] },
  { calls: [{ id: "call_exit_1", name: "exit_plan_mode", args: { plan: PLAN_V1 } }] },
  { text: "Revised.", calls: [{ id: "call_exit_2", name: "exit_plan_mode", args: { plan: PLAN_V2 } }] },
  { calls: [{ id: "call_write", name: "write", args: { path: "src/done.ts", content: DONE_TS } }] },
  { text: "Implemented the done flag." },
];
const ENV_NAMES = [
  ...Object.keys(SECRETS),
  ...Object.keys(KEYS),
  "ANTHROPIC_BASE_URL",
  "OPENAI_BASE_URL",
  "PLANGATE_BASE_URL",
];

let api: Api | undefined;
let fake: Fake | undefined;
afterEach(async () => {
  await api?.close();
  await fake?.close();
  api = fake = undefined;
  for (const name of ENV_NAMES) delete process.env[name];
});
const { say, decide, stateOf } = planKit(() => api!);

describe.each(RIGS)("the plan flow through the real AI SDK provider: $name ($model)", (p) => {
  it("plans read-only, takes feedback, executes after approval; the provider sees the right tools, prompt and results, and no secret", async () => {
    fake = await p.start(TURNS);
    api = testApi({ env: { ...SECRETS, ...KEYS, ...fake.env } });
    const created = await api.call("POST", "/api/sessions", {
      title: "providers",
      workspace: api.workspace,
      model: p.model,
      mode: "plan",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.session.id as string;
    await say(id, "add a done flag");

    const first = await awaitReview(api, id);
    expect(fs.existsSync(path.join(api.workspace, "src/done.ts"))).toBe(false);
    expect((await decide(first, { decision: "reject", feedback: FEEDBACK })).status).toBe(200);
    const second = await awaitReview(api, id);
    expect(second).not.toBe(first);
    expect((await decide(second, { decision: "approve", mode: "acceptEdits" })).status).toBe(200);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(ofType(events, "turn.ended").at(-1)?.reason).toBe("done");
    expect((await stateOf(id)).mode).toBe("acceptEdits");
    expect(fs.readFileSync(path.join(api.workspace, "src/done.ts"), "utf8")).toBe(DONE_TS);
    expect(ofType(events, "message.assistant").at(-1)?.text).toBe("Implemented the done flag.");

    // After the turn, the verifier grades the approved plan's items with the same model (one request, no tools).
    const verifications = await waitFor("the verification", async () => {
      const list = await listVerifications(api!.t.db, id);
      return list.length > 0 && list;
    });
    expect(verifications).toHaveLength(1);

    const all = fake.sent();
    const sent = all.filter((s) => s.tools.length > 0);
    const verifier = all.filter((s) => s.tools.length === 0);
    expect(verifier).toHaveLength(1);
    expect(verifier[0]!.raw).toContain("Add a rollback step.");
    expect(all.map((s) => s.path)).toEqual(
      Array(6).fill(
        p.model.startsWith("anthropic:")
          ? "/v1/messages"
          : p.model.startsWith("openai:")
            ? "/v1/responses"
            : "/v1/chat/completions",
      ),
    );
    // The tool list is what the registry offers for the session's rules, on every request (stable across modes).
    const offered = modelTools((await loadSessionContext(api.t.db, id)).rules).map((t) => t.name);
    expect(offered).toEqual(expect.arrayContaining(["read", "write", "exit_plan_mode"]));
    for (const s of sent) expect(s.tools).toEqual(offered);

    // Plan-mode instructions on the plan-mode requests, in full on the first; none once the plan is approved.
    const { state } = await getSession(api.t.db, id);
    expect(state.planPath).toBeTruthy();
    const full = planModeSection({ ...state, mode: "plan", steps: null });
    expect(full).toContain("PLAN MODE ACTIVE.");
    expect(sent[0]!.system).toContain(full!);
    for (const s of sent.slice(1, 3)) expect(s.system).toMatch(/PLAN MODE ACTIVE|Plan mode is on/);
    for (const s of sent.slice(3)) expect(s.system).not.toMatch(/PLAN MODE ACTIVE|Plan mode is on/);

    // Tool results: the file read, the reviewer's feedback, the approval, the write.
    expect(sent[1]!.results.get("call_read")).toContain("A todo service.");
    const rejected = sent[2]!.results.get("call_exit_1") ?? "";
    expect(rejected).toContain("did not approve");
    expect(rejected).toContain(FEEDBACK);
    const approved = sent[3]!.results.get("call_exit_2") ?? "";
    expect(approved).toContain("User has approved your plan.");
    expect(approved).toContain("permission mode: acceptEdits");
    expect(approved).toContain("3. Add a rollback step.");
    expect(sent[4]!.results.has("call_write")).toBe(true);

    // Secrets: none in any body or header; the provider's own key only in its own auth header.
    const ownKey = KEYS[p.keyVar];
    for (const s of all) {
      for (const secret of [...Object.values(SECRETS), ...Object.values(KEYS)]) expect(s.raw).not.toContain(secret);
      for (const [name, value] of Object.entries(s.headers)) {
        const text = String(value);
        for (const secret of Object.values(SECRETS)) expect(text, `header ${name}`).not.toContain(secret);
        for (const key of Object.values(KEYS))
          if (key !== ownKey || name !== p.keyHeader) expect(text, `header ${name}`).not.toContain(key);
      }
      expect(String(s.headers[p.keyHeader])).toContain(ownKey);
    }
  });

  it("leaves out of every request the tools the workspace's rules disable outright", async () => {
    fake = await p.start([{ text: "Nothing to change." }]);
    const config = { permission: { bash: { "*": "deny" }, task: { "*": "deny" } } };
    api = testApi({
      env: { ...KEYS, ...fake.env },
      files: { "README.md": "# Demo\n", ".plangate/config.json": JSON.stringify(config) },
    });
    const created = await api.call("POST", "/api/sessions", { workspace: api.workspace, model: p.model, mode: "plan" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await say(created.body.session.id as string, "look around");
    expect((await settle(api, created.body.session.id as string)).status).toBe("idle");
    const [first] = fake.sent().filter((s) => s.tools.length > 0);
    expect(first!.tools).toEqual(expect.arrayContaining(["read", "grep", "exit_plan_mode"]));
    expect(first!.tools).not.toContain("bash");
    expect(first!.tools).not.toContain("task");
  });
});
