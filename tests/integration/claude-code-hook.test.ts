// `plangate connect claude-code` and the hook it writes, against a real server (the hook as Claude Code runs
// it: its stdin, its stdout). The same hook with the real Claude Code CLI is in tests/agents; the hook as the
// attack is claude-code-hook-attack.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../helpers/poll";
import { claudeCodeHookKit, HOOK_TOKEN } from "../helpers/claude-code-hook-kit";

const { fixture, config, plangate, authed } = claudeCodeHookKit("cc-hook");

describe("plangate connect claude-code + the hook", () => {
  it("writes the hook into the project's settings (merging), keeps the token out of them, and the hook carries a decision both ways", async () => {
    const server = fixture.server();
    const ws = fixture.workspace;
    fs.mkdirSync(path.join(ws, ".claude"), { recursive: true });
    fs.writeFileSync(
      path.join(ws, ".claude/settings.json"),
      JSON.stringify({ permissions: { allow: ["Bash(npm test:*)"] } }),
    );
    const connected = await plangate(["connect", "claude-code", "--url", server.url, "--token", HOOK_TOKEN], {
      cwd: ws,
    });
    expect(connected.code).toBe(0);
    const settings = JSON.parse(fs.readFileSync(path.join(ws, ".claude/settings.json"), "utf8"));
    expect(settings.permissions).toEqual({ allow: ["Bash(npm test:*)"] });
    const hook = settings.hooks.PermissionRequest[0];
    expect(hook.matcher).toBe("ExitPlanMode");
    expect(hook.hooks[0].timeout).toBeGreaterThanOrEqual(600);
    expect(JSON.stringify(settings)).not.toContain(HOOK_TOKEN);
    expect(fs.statSync(path.join(config, "plangate/credentials.json")).mode & 0o777).toBe(0o600);
    // The command as a shell reads it: each word is single-quoted.
    const hookArgs =
      (hook.hooks[0].command as string)
        .match(/hook claude-code --url '[^']+'/)?.[0]
        .replace(/'/g, "")
        .split(" ") ?? [];
    expect(hookArgs).toEqual(["hook", "claude-code", "--url", server.url]);

    const stdin = (plan: string) =>
      JSON.stringify({
        session_id: "cc-session-1",
        transcript_path: path.join(ws, "transcript.jsonl"),
        cwd: ws,
        permission_mode: "plan",
        hook_event_name: "PermissionRequest",
        tool_name: "ExitPlanMode",
        tool_input: { plan, planFilePath: "/home/u/.claude/plans/p.md" },
      });
    // Approve with an edit: the hook prints the allow with the edited plan and the mode.
    const first = plangate(hookArgs, { cwd: ws, stdin: stdin("# Plan\n\n1. Add a filter\n") });
    const pending = await until(
      () => authed(`${server.url}/api/reviews?status=pending`, "GET"),
      (r) => r.body.reviews.length === 1,
    );
    const reviewId = pending.body.reviews[0].id as string;
    expect(
      (
        await authed(`${server.url}/api/reviews/${reviewId}/decision`, "POST", {
          decision: "approve",
          plan: "# Plan\n\n1. Add a filter\n2. Test it\n",
          mode: "acceptEdits",
        })
      ).status,
    ).toBe(200);
    const approved = await first;
    expect(approved.code).toBe(0);
    // The address it printed opens this review on the desk.
    expect(approved.stderr).toContain(`${server.url}/desk?item=${reviewId}`);
    expect(JSON.parse(approved.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "allow",
          updatedInput: { plan: "# Plan\n\n1. Add a filter\n2. Test it\n", planFilePath: "/home/u/.claude/plans/p.md" },
          updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
        },
      },
    });

    // Reject with a line comment: a deny whose message carries both.
    const second = plangate(hookArgs, { cwd: ws, stdin: stdin("# Plan\n\n1. Rewrite everything\n") });
    const again = await until(
      () => authed(`${server.url}/api/reviews?status=pending`, "GET"),
      (r) => r.body.reviews.length === 1,
    );
    await authed(`${server.url}/api/reviews/${again.body.reviews[0].id}/decision`, "POST", {
      decision: "reject",
      feedback: "Too big",
      comments: [{ lineStart: 3, lineEnd: 3, body: "Split this" }],
    });
    const denied = JSON.parse((await second).stdout);
    expect(denied.hookSpecificOutput.decision.behavior).toBe("deny");
    expect(denied.hookSpecificOutput.decision.message).toContain("Too big");
    expect(denied.hookSpecificOutput.decision.message).toContain("Split this");
    // One Plangate session for the Claude Code session, two plan versions.
    const sessions = (await authed(`${server.url}/api/sessions`, "GET")).body.sessions as { agent: string }[];
    expect(sessions.map((s) => s.agent)).toEqual(["claude-code"]);

    // The terminal answers first: the review shows so, and the hook says nothing.
    const third = plangate(hookArgs, { cwd: ws, stdin: stdin("# Plan\n\n1. Smaller\n") });
    const third1 = await until(
      () => authed(`${server.url}/api/reviews?status=pending`, "GET"),
      (r) => r.body.reviews.length === 1,
    );
    fs.writeFileSync(
      path.join(ws, "transcript.jsonl"),
      [
        JSON.stringify({
          message: { content: [{ type: "tool_use", id: "toolu_1", name: "ExitPlanMode", input: {} }] },
        }),
        JSON.stringify({
          message: {
            content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "User has approved your plan." }],
          },
        }),
      ].join("\n"),
    );
    const silent = await third;
    expect(silent.stdout).toBe("");
    await until(
      () => authed(`${server.url}/api/reviews?status=answered_elsewhere`, "GET"),
      (r) => r.body.reviews.some((x: { id: string }) => x.id === third1.body.reviews[0].id),
      15_000,
    );
    expect((await authed(`${server.url}/api/reviews?status=pending`, "GET")).body.reviews).toHaveLength(0);

    // Without the token the server refuses, and the hook leaves the decision to the terminal (exit 0, silent).
    fs.rmSync(path.join(config, "plangate/credentials.json"));
    const refused = await plangate(hookArgs, { cwd: ws, stdin: stdin("# Plan\n\n1. x\n") });
    expect(refused).toMatchObject({ code: 0, stdout: "" });
    expect(refused.stderr).toContain("401");

    expect((await plangate(["connect", "claude-code", "--remove"], { cwd: ws })).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(ws, ".claude/settings.json"), "utf8"))).toEqual({
      permissions: { allow: ["Bash(npm test:*)"] },
    });
  }, 120_000);
});
