import { describe, expect, it } from "vitest";
import { hookCommand } from "./hook-command";
import { qwenAsk, qwenPermission, qwenPlanHook, qwenPreDeny, withQwenHooks } from "./qwen-hook";

const command = hookCommand("/opt/plangate.mjs", "qwen", "http://127.0.0.1:3000", ["--deadline", "3540"]);
const theirs = { matcher: "run_shell_command", hooks: [{ type: "command", command: "their-lint", timeout: 5 }] };

describe("Qwen Code's hooks", () => {
  it("puts the plan's review before Qwen's prompt, its check after, asks on PreToolUse; keeps the person's own", () => {
    const entry = { type: "command", name: "plangate", command, timeout: 3_600_000 };
    const once = withQwenHooks({ PreToolUse: [theirs] }, { command, timeoutMs: 3_600_000, asks: true });
    expect(once.PermissionRequest).toEqual([{ matcher: "^exit_plan_mode$", hooks: [entry] }]);
    expect(once.PreToolUse).toEqual([
      theirs,
      { matcher: "^exit_plan_mode$", hooks: [entry] },
      { matcher: "^(write_file|edit|replace|run_shell_command)$", hooks: [entry] },
    ]);
    expect(once.PostToolUse).toEqual([{ matcher: "^exit_plan_mode$", hooks: [entry] }]);
    expect(qwenPlanHook(once)?.timeout).toBe(3_600_000);
    const removed = withQwenHooks(once, { command, timeoutMs: 1000, asks: false, remove: true });
    expect(removed).toEqual({ PermissionRequest: [], PreToolUse: [theirs], PostToolUse: [] });
  });

  it.each([
    ["run_shell_command", { command: "rm -rf x" }, { tool: "Bash", input: { command: "rm -rf x" } }],
    ["write_file", { file_path: "/w/a", content: "x" }, { tool: "Write", input: { file_path: "/w/a" } }],
    ["edit", { file_path: "/w/a" }, { tool: "Edit", input: { file_path: "/w/a" } }],
    ["replace", { file_path: "/w/a" }, { tool: "Edit", input: { file_path: "/w/a" } }],
    ["write_file", { path: "/w/a" }, null],
  ])("%s %j is asked as %j", (tool, input, ask) => {
    expect(qwenAsk(tool, input)).toEqual(ask);
  });

  it("answers in the shapes Qwen reads", () => {
    expect(qwenPermission("deny", "no")).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no" } },
    });
    expect(qwenPreDeny("no")).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
    });
  });
});
