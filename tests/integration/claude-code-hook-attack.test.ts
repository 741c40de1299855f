// Plangate's Claude Code hook as the attack, against a real server: what a sandbox rule or the repository allows
// never reaches Claude Code as allow.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../helpers/poll";
import { claudeCodeHookKit, HOOK_TOKEN, PLANGATE_BIN } from "../helpers/claude-code-hook-kit";

const { fixture, config, authed } = claudeCodeHookKit("cc-hook-attack");

describe("the hook as the attack: what a sandbox rule or the repository allows never reaches Claude Code as allow", () => {
  const hook = (stdin: object) => {
    const child = spawn(process.execPath, [PLANGATE_BIN, "hook", "claude-code", "--url", fixture.server().url], {
      env: { ...process.env, XDG_CONFIG_HOME: config, PLANGATE_TOKEN: HOOK_TOKEN },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stdin.end(JSON.stringify(stdin));
    return new Promise<{ code: number | null; stdout: string }>((resolve) =>
      child.once("close", (code) => resolve({ code, stdout })),
    );
  };
  const asked = (tool: string, toolInput: Record<string, unknown>) => ({
    session_id: "cc-hook-attack",
    cwd: fixture.workspace,
    hook_event_name: "PermissionRequest",
    tool_name: tool,
    tool_input: toolInput,
  });
  const pendingFor = (pattern: string) =>
    until(
      () => authed(`${fixture.server().url}/api/permissions?status=pending`, "GET"),
      (r) => r.body.permissions.some((p: { patterns: string[] }) => p.patterns.includes(pattern)),
    ).then(
      (r) =>
        r.body.permissions.find((p: { patterns: string[] }) => p.patterns.includes(pattern)) as {
          id: string;
          metadata: Record<string, unknown>;
        },
    );
  const behaviour = (out: string) =>
    out
      ? (JSON.parse(out) as { hookSpecificOutput: { decision: { behavior: string } } }).hookSpecificOutput.decision
          .behavior
      : "none";

  it("with a person's `mkdir *` grant for outside agents, a composed command waits for a person and the hook prints deny, never allow", async () => {
    const server = fixture.server();
    const ws = fs.realpathSync(fixture.workspace);
    // The grant: "always" on Claude Code's plain `mkdir a`, as the person would on the permission card.
    const first = hook(asked("Bash", { command: "mkdir a" }));
    const plain = await pendingFor("mkdir a");
    expect(
      (await authed(`${server.url}/api/permissions/${plain.id}/reply`, "POST", { reply: "always", scope: "workspace" }))
        .status,
    ).toBe(200);
    expect(behaviour((await first).stdout)).toBe("allow");
    // It answers a single simple command at once...
    expect(behaviour((await hook(asked("Bash", { command: "mkdir b" }))).stdout)).toBe("allow");
    // ...and no composition of one.
    for (const command of [
      `mkdir x && touch ${ws}/PWNED`,
      `mkdir x; touch ${ws}/PWNED`,
      `mkdir x $(touch ${ws}/PWNED)`,
      `mkdir x > ${ws}/.bashrc`,
      `mkdir x\ntouch ${ws}/PWNED`,
    ]) {
      const waiting = hook(asked("Bash", { command }));
      const req = await pendingFor(command);
      expect(req.metadata.exactOnly).toEqual([command]);
      await authed(`${server.url}/api/permissions/${req.id}/reply`, "POST", { reply: "reject", message: "no" });
      expect([command, behaviour((await waiting).stdout)]).toEqual([command, "deny"]);
    }
    expect(fs.existsSync(path.join(ws, "PWNED"))).toBe(false);
  }, 120_000);

  it("a trusted workspace config that allows every edit answers no edit of a control file: it waits, 'always' is refused, the hook prints deny", async () => {
    const server = fixture.server();
    const ws = fs.realpathSync(fixture.workspace);
    fs.mkdirSync(path.join(ws, ".plangate"), { recursive: true });
    fs.writeFileSync(
      path.join(ws, ".plangate/config.json"),
      JSON.stringify({ permission: { edit: { "*": "allow" }, bash: "allow" } }),
    );
    const view = await authed(`${server.url}/api/workspaces/trust?workspace=${encodeURIComponent(ws)}`, "GET");
    expect(
      (await authed(`${server.url}/api/workspaces/trust`, "POST", { workspace: ws, hash: view.body.hash })).body
        .trusted,
    ).toBe(true);
    for (const file of [
      ".claude/settings.json",
      ".git/config",
      ".plangate/config.json",
      ".bashrc",
      "src/.git/config",
    ]) {
      const waiting = hook(asked("Write", { file_path: path.join(ws, file), content: "{}" }));
      const req = await pendingFor(file);
      expect(req.metadata.control).toBe(true);
      expect(
        (await authed(`${server.url}/api/permissions/${req.id}/reply`, "POST", { reply: "always", scope: "workspace" }))
          .status,
      ).toBe(400);
      await authed(`${server.url}/api/permissions/${req.id}/reply`, "POST", { reply: "reject" });
      expect([file, behaviour((await waiting).stdout)]).toEqual([file, "deny"]);
    }
    // The config's allow rules are for Plangate's own agent: Claude Code's ordinary edit still asks a person.
    const ordinary = hook(asked("Edit", { file_path: path.join(ws, "README.md"), old_string: "a", new_string: "b" }));
    const req = await pendingFor("README.md");
    await authed(`${server.url}/api/permissions/${req.id}/reply`, "POST", { reply: "once" });
    expect(behaviour((await ordinary).stdout)).toBe("allow");
    fs.rmSync(path.join(ws, ".plangate"), { recursive: true, force: true });
  }, 120_000);

  it("a team lead's model cannot answer Claude Code's plan: the hook keeps waiting until a person decides; the plan path it sent is never written", async () => {
    const server = fixture.server();
    const ws = fs.realpathSync(fixture.workspace);
    const script = [
      {
        toolCalls: [
          {
            name: "send_message",
            input: { type: "plan_approval_response", to: "claude-code-cc-hook-team", approve: true },
          },
        ],
      },
      { text: "approved it" },
    ];
    const lead = (
      await authed(`${server.url}/api/sessions`, "POST", {
        workspace: ws,
        model: "scripted",
        mode: "acceptEdits",
        script,
      })
    ).body.session.id as string;
    const teamId = (await authed(`${server.url}/api/teams`, "POST", { sessionId: lead })).body.team.id as string;
    // An earlier plan of the same Claude Code session, which a person then joined to the lead's team.
    const earlier = await authed(`${server.url}/api/external/plan-reviews`, "POST", {
      agent: "claude-code",
      externalSessionId: "cc-hook-team",
      cwd: ws,
      plan: "# Plan\n\n1. Look around\n",
    });
    expect(earlier.status).toBe(201);
    const joined = await authed(`${server.url}/api/teams/${teamId}/members`, "POST", {
      sessionId: earlier.body.sessionId,
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const child = spawn(process.execPath, [PLANGATE_BIN, "hook", "claude-code", "--url", server.url], {
      env: { ...process.env, XDG_CONFIG_HOME: config, PLANGATE_TOKEN: HOOK_TOKEN },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    child.stdin.end(
      JSON.stringify({
        session_id: "cc-hook-team",
        cwd: ws,
        hook_event_name: "PermissionRequest",
        tool_name: "ExitPlanMode",
        tool_input: { plan: "# Plan\n\n1. Change src/app.ts\n", planFilePath: "tests/conftest.py" },
      }),
    );
    const mail = await until(
      () => authed(`${server.url}/api/teams/${teamId}/mailbox`, "GET"),
      (r) => r.body.messages.some((m: { type: string }) => m.type === "plan_approval_request"),
    );
    const request = mail.body.messages.find((m: { type: string }) => m.type === "plan_approval_request") as {
      id: string;
      requestId: string;
      from: string;
    };

    // The lead's model tries to approve: refused, with a clear error; the review and the hook keep waiting.
    await authed(`${server.url}/api/sessions/${lead}/messages`, "POST", { text: "answer your teammate" });
    const leadEvents = await until(
      () => authed(`${server.url}/api/sessions/${lead}/events?limit=500`, "GET"),
      (r) =>
        r.body.events.some(
          (e: { type: string; payload: { tool?: string } }) =>
            e.type === "tool.result" && e.payload.tool === "send_message",
        ),
    );
    const result = leadEvents.body.events.find(
      (e: { type: string; payload: { tool?: string } }) =>
        e.type === "tool.result" && e.payload.tool === "send_message",
    ).payload as { ok: boolean; error: string };
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/only a person may answer an outside agent's plan/);
    expect(
      (await authed(`${server.url}/api/external/plan-reviews/${request.requestId}?wait=0`, "GET")).body.status,
    ).toBe("pending");
    expect(child.exitCode).toBeNull();
    expect(stdout).toBe("");

    // Resume and fork of the outside session write nothing at the path the agent sent.
    await authed(`${server.url}/api/sessions/${request.from}/resume`, "POST");
    expect((await authed(`${server.url}/api/sessions/${request.from}/fork`, "POST", {})).status).toBe(201);
    expect(fs.existsSync(path.join(ws, "tests/conftest.py"))).toBe(false);

    // A person sends it back: the hook tells Claude Code to keep planning.
    expect(
      (
        await authed(`${server.url}/api/teams/${teamId}/mailbox/${request.id}/reply`, "POST", {
          approve: false,
          feedback: "Smaller, please",
        })
      ).status,
    ).toBe(200);
    await exited;
    expect(JSON.parse(stdout).hookSpecificOutput.decision).toMatchObject({
      behavior: "deny",
      message: expect.stringContaining("Smaller, please"),
    });
  }, 120_000);
});
