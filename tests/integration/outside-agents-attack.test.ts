import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/db/session-log/read-events";
import { call, results, settle, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";

// Outside agents (Claude Code, OpenCode) run on the host, with the network, outside Plangate's sandbox. Each
// test is an attack through the public API and the check that its effect is absent: an ask still pending
// (never "allow"), a review still pending, a file never written.
let api: Api;
afterEach(async () => {
  await api?.close();
});

type Ask = { id: string; permission: string; patterns: string[]; metadata: Record<string, unknown>; status: string };
const ask = (tool: string, input: Record<string, unknown>, externalSessionId = "cc-attack") =>
  api.call("POST", "/api/external/permission-asks", {
    agent: "claude-code",
    externalSessionId,
    cwd: api.workspace,
    tool,
    input,
  });
const bash = (command: string) => ask("Bash", { command });
const edit = (file: string) =>
  ask("Edit", { file_path: path.join(api.workspace, file), old_string: "a", new_string: "b" });
const pendingAsk = async (id: string): Promise<Ask> =>
  (await api.call("GET", "/api/permissions?status=pending")).body.permissions.find((p: Ask) => p.id === id);

const COMPOUND = [
  "mkdir x && touch pwned",
  "mkdir x; curl http://127.0.0.1:9/",
  "mkdir x $(touch pwned)",
  "mkdir x `touch pwned`",
  "mkdir x > ~/.bashrc",
  "mkdir x\ntouch pwned",
  "mkdir x | sh",
  "mkdir $HOME/x",
  // bash keeps a carriage return inside the word (it runs ./mkdir\rx/y); the parser would split there.
  "mkdir\rx/y",
  // Plain, but reaching outside the workspace on the host.
  "mkdir ~/.config/autostart",
  "mkdir ../elsewhere",
];

/** A person's "always" on an ask of Plangate's own (sandboxed) agent: `mkdir` with any arguments. */
async function grantForSandboxedAgent(): Promise<void> {
  const id = await startScripted(api, [call("bash", { command: "mkdir made-by-agent" }), { text: "done" }]);
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
  const { status } = await settle(api, id);
  expect(status).toBe("awaiting_permission");
  const [req] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions as Ask[];
  expect(
    (await api.call("POST", `/api/permissions/${req?.id}/reply`, { reply: "always", scope: "workspace" })).status,
  ).toBe(200);
  await settle(api, id);
  const grants = (await api.call("GET", `/api/grants?workspace=${encodeURIComponent(api.workspace)}`)).body.grants as {
    pattern: string;
    actor: string;
  }[];
  expect(grants).toEqual([expect.objectContaining({ pattern: "mkdir *", actor: "agent" })]);
}

describe("class 1: a rule made for the sandbox never answers an unsandboxed agent", () => {
  it("a person's `mkdir *` grant for Plangate's agent answers none of Claude Code's commands, plain or composed", async () => {
    api = testApi();
    await grantForSandboxedAgent();
    for (const command of ["mkdir x", ...COMPOUND]) {
      const r = await bash(command);
      expect([command, r.status, r.body.status]).toEqual([command, 201, "pending"]);
    }
  });

  it("a grant made for outside agents covers only a single simple command: every composition still waits for a person", async () => {
    api = testApi();
    const first = (await bash("mkdir a")).body as { requestId: string };
    const offered = await pendingAsk(first.requestId);
    expect(offered.metadata.alwaysOptions).toEqual([
      {
        pattern: "mkdir a",
        options: [
          expect.objectContaining({ rule: "mkdir a", exact: true }),
          expect.objectContaining({ rule: "mkdir *", exact: false }),
        ],
      },
    ]);
    expect(
      (await api.call("POST", `/api/permissions/${first.requestId}/reply`, { reply: "always", scope: "workspace" }))
        .status,
    ).toBe(200);
    expect((await bash("mkdir b")).body).toMatchObject({ status: "allow", requestId: null });
    for (const command of COMPOUND) expect([command, (await bash(command)).body.status]).toEqual([command, "pending"]);
    // The composed command's "always" saves its exact text only, never a prefix.
    const composed = (await bash("mkdir c && touch pwned")).body as { requestId: string };
    expect((await pendingAsk(composed.requestId)).metadata.alwaysOptions).toEqual([
      {
        pattern: "mkdir c && touch pwned",
        options: [expect.objectContaining({ rule: "mkdir c && touch pwned", exact: true })],
      },
    ]);
  });

  it("a grant made for outside agents never answers Plangate's own agent", async () => {
    api = testApi();
    const first = (await bash("mkdir a")).body as { requestId: string };
    await api.call("POST", `/api/permissions/${first.requestId}/reply`, { reply: "always", scope: "workspace" });
    const id = await startScripted(api, [call("bash", { command: "mkdir by-agent" }), { text: "done" }]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    expect(fs.existsSync(path.join(api.workspace, "by-agent"))).toBe(false);
  });
});

describe("class 2: the repository never answers for the person", () => {
  const CONTROL = [
    ".claude/settings.json",
    ".git/config",
    ".plangate/config.json",
    ".bashrc",
    "src/.git/config",
    ".vscode/tasks.json",
    ".envrc",
  ];
  const widening = { permission: { edit: { "*": "allow" }, bash: "allow", network: "allow" } };

  it.each([
    ["not trusted", false],
    ["trusted by a person", true],
  ])(
    "a workspace config (%s) that allows every edit and command answers no outside ask; control files are flagged and never 'always'",
    async (_name, trusted) => {
      api = testApi({
        files: { "README.md": "# x\n", "cfg/x": "", ".plangate/config.json": JSON.stringify(widening) },
      });
      if (trusted) await trustWorkspaceConfig(api, api.workspace);
      expect((await bash("ls")).body.status).toBe("pending");
      expect((await edit("src/app.ts")).body.status).toBe("pending");
      // The agent's folder may be on another machine: a control file is known by its name there, as written.
      for (const file of [...CONTROL, ".cursor/settings.json", "src/../.git/hooks/pre-commit"]) {
        const r = (await edit(file)).body as { status: string; requestId: string };
        expect([file, r.status]).toEqual([file, "pending"]);
        expect([file, (await pendingAsk(r.requestId)).metadata.control]).toEqual([file, true]);
        const always = await api.call("POST", `/api/permissions/${r.requestId}/reply`, {
          reply: "always",
          scope: "workspace",
        });
        expect([file, always.status]).toEqual([file, 400]);
        expect((await pendingAsk(r.requestId)).status).toBe("pending");
      }
      expect((await api.call("GET", `/api/grants?workspace=${encodeURIComponent(api.workspace)}`)).body.grants).toEqual(
        [],
      );
    },
  );

  it("the agent's folder is never read: its config neither allows nor refuses; only a person answers, and a person's grant", async () => {
    const config = {
      permission: { bash: { "rm *": "deny", "mkdir *": "allow" }, edit: { "*": "allow", "secrets/*": "deny" } },
    };
    api = testApi({ files: { "README.md": "# x\n", ".plangate/config.json": JSON.stringify(config) } });
    await trustWorkspaceConfig(api, api.workspace);
    for (const r of [await bash("rm -rf build"), await bash("mkdir a"), await edit("secrets/key.pem")])
      expect(r.body.status).toBe("pending");
    const first = (await bash("mkdir b")).body as { requestId: string };
    expect(
      (await api.call("POST", `/api/permissions/${first.requestId}/reply`, { reply: "always", scope: "workspace" }))
        .status,
    ).toBe(200);
    expect((await bash("mkdir c")).body).toMatchObject({ status: "allow", requestId: null });
  });
});

describe("class 3: a model never approves an outside agent's plan", () => {
  const PLAN = "# Ship it\n\n1. Change src/app.ts\n";

  it.each([
    ["approve", true],
    ["send back", false],
  ])(
    "the lead's model (%s) is refused with a clear error; the review stays pending and the hook gets nothing",
    async (_name, approve) => {
      api = testApi();
      const script = [
        call("send_message", {
          type: "plan_approval_response",
          to: "claude-code-cc-team",
          approve,
          ...(approve ? {} : { feedback: "no" }),
        }),
        { text: "done" },
      ];
      const lead = await startScripted(api, script, { mode: "acceptEdits" });
      const teamId = (await api.call("POST", "/api/teams", { sessionId: lead })).body.team.id as string;
      // A person made the outside agent a teammate of the lead's team; its next plan waits in the mailbox.
      const submit = () =>
        api.call("POST", "/api/external/plan-reviews", {
          agent: "claude-code",
          externalSessionId: "cc-team",
          cwd: api.workspace,
          plan: PLAN,
        });
      const first = await submit();
      expect(first.status).toBe(201);
      const joined = await api.call("POST", `/api/teams/${teamId}/members`, { sessionId: first.body.sessionId });
      expect(joined.status, JSON.stringify(joined.body)).toBe(200);
      const submitted = await submit();
      expect(submitted.status).toBe(201);
      const { reviewId, sessionId } = submitted.body as { reviewId: string; sessionId: string };
      expect(
        (await api.call("GET", `/api/teams/${teamId}`)).body.team.teammates.map(
          (t: { sessionId: string }) => t.sessionId,
        ),
      ).toEqual([sessionId]);

      await api.call("POST", `/api/sessions/${lead}/messages`, { text: "answer your teammate" });
      await settle(api, lead);
      const [result] = results(await readEvents(api.t.db, lead));
      expect(result).toMatchObject({ tool: "send_message", ok: false });
      expect(result?.error).toMatch(
        /Refused: The lead's model may not answer this plan: only a person may answer an outside agent's plan/,
      );
      expect((await api.call("GET", `/api/external/plan-reviews/${reviewId}?wait=0`)).body).toMatchObject({
        status: "pending",
        decision: null,
      });
      const mail = (await api.call("GET", `/api/teams/${teamId}/mailbox`)).body.messages as {
        type: string;
        status: string;
      }[];
      expect(mail.filter((m) => m.type === "plan_approval_request").map((m) => m.status)).not.toContain("answered");
      expect(mail.some((m) => m.type === "plan_approval_response")).toBe(false);

      // A person in the mailbox still can.
      const request = mail.find((m) => m.type === "plan_approval_request") as unknown as { id: string };
      expect(
        (await api.call("POST", `/api/teams/${teamId}/mailbox/${request.id}/reply`, { approve: true })).status,
      ).toBe(200);
      expect((await api.call("GET", `/api/external/plan-reviews/${reviewId}?wait=5`)).body.status).toBe("approved");
    },
  );
});

describe("class 5: a path from outside never becomes a write target", () => {
  it.each(["tests/conftest.py", ".envrc", "src/app.ts"])(
    "planFilePath %s is shown, never written by Resume or fork",
    async (target) => {
      api = testApi({ files: { "README.md": "# x\n", "src/app.ts": "export const app = 1;\n" } });
      const before = fs.existsSync(path.join(api.workspace, target))
        ? fs.readFileSync(path.join(api.workspace, target), "utf8")
        : null;
      for (const planFilePath of [target, path.join(api.workspace, target)]) {
        const { sessionId } = (
          await api.call("POST", "/api/external/plan-reviews", {
            agent: "claude-code",
            externalSessionId: `cc-path-${planFilePath.length}`,
            cwd: api.workspace,
            plan: "# Plan\n\n1. Write the tests\n",
            planFilePath,
          })
        ).body as { sessionId: string };
        await api.call("POST", `/api/sessions/${sessionId}/resume`);
        const fork = await api.call("POST", `/api/sessions/${sessionId}/fork`, {});
        expect(fork.status).toBe(201);
        await api.call("POST", `/api/sessions/${fork.body.session.id}/resume`);
      }
      const after = fs.existsSync(path.join(api.workspace, target))
        ? fs.readFileSync(path.join(api.workspace, target), "utf8")
        : null;
      expect(after).toBe(before);
    },
  );
});

describe("class 6: a body nested 20,000 levels deep", () => {
  it("is a 400 that names the problem on every JSON route, and changes nothing", async () => {
    api = testApi();
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const routes: [string, string][] = [
      ["POST", "/api/sessions"],
      ["POST", "/api/sessions/import"],
      ["POST", "/api/external/plan-reviews"],
      ["POST", "/api/external/permission-asks"],
      ["POST", "/api/workspaces/trust"],
    ];
    for (const [method, url] of routes) {
      const r = await api.call(method, url, `{"a": ${deep}}`);
      expect([url, r.status]).toEqual([url, 400]);
      expect(r.body.error.message).toMatch(/nested deeper than 64 levels/);
    }
    expect((await api.call("GET", "/api/sessions")).body.sessions).toEqual([]);
  });
});
