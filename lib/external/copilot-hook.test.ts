import { describe, expect, it } from "vitest";
import { copilotAsk, copilotDeny, copilotHookInput, copilotHooksFile, copilotPlanFile } from "./copilot-hook";

describe("GitHub Copilot CLI's hook", () => {
  it.each([
    ["bash", { command: "rm -rf x", description: "d" }, { tool: "Bash", input: { command: "rm -rf x" } }],
    ["create", { path: "/w/a", file_text: "x" }, { tool: "Write", input: { file_path: "/w/a" } }],
    ["edit", { path: "/w/a", old_str: "a", new_str: "b" }, { tool: "Edit", input: { file_path: "/w/a" } }],
    ["apply_patch", { input: "…" }, null],
    ["bash", { cmd: "ls" }, null],
  ])("%s %j is asked as %j", (tool, input, ask) => {
    expect(copilotAsk(tool, input)).toEqual(ask);
  });

  it.each([
    ["09e192dd-75f5-45eb-b12d-bddf0297429b", true],
    ["../../etc", false],
    ["a/b", false],
    ["", false],
  ])("takes session id %j as a folder name: %s", (sessionId, ok) => {
    const parsed = copilotHookInput.safeParse({ sessionId, cwd: "/w", toolName: "exit_plan_mode", toolArgs: {} });
    expect(parsed.success).toBe(ok);
    if (ok) expect(copilotPlanFile("/h/.copilot", sessionId)).toBe(`/h/.copilot/session-state/${sessionId}/plan.md`);
  });

  it("writes its own hooks file in Copilot's format: the plan tool, and its shell and write tools always", () => {
    const plain = copilotHooksFile({ command: "c", timeoutSec: 3600, asks: false });
    expect(plain).toEqual({
      version: 1,
      hooks: {
        preToolUse: [
          { type: "command", matcher: "exit_plan_mode", bash: "c", timeoutSec: 3600 },
          { type: "command", matcher: "bash|create|edit|apply_patch", bash: "c", timeoutSec: 3600 },
        ],
      },
    });
    const asks = copilotHooksFile({ command: "c", timeoutSec: 60, asks: true }) as {
      hooks: { preToolUse: { bash: string }[] };
    };
    expect(asks.hooks.preToolUse.map((e) => e.bash)).toEqual(["c", "c --asks"]);
    expect(copilotDeny("no")).toEqual({ permissionDecision: "deny", permissionDecisionReason: "no" });
  });
});
