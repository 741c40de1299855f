import { describe, expect, it } from "vitest";
import { droidAsk, droidDeny, droidPlanHook, plantedPlanHooks, withDroidHooks } from "./droid-hook";
import { hookCommand } from "./hook-command";

const command = hookCommand("/opt/plangate.mjs", "droid", "http://127.0.0.1:3000", ["--deadline", "3540"]);
const theirs = { matcher: "Execute", hooks: [{ type: "command", command: "their-lint", timeout: 5 }] };

describe("Factory Droid's hooks file", () => {
  it("adds Plangate's groups beside the person's, replaces them on a second connect, and removes only them", () => {
    const once = withDroidHooks({ PreToolUse: [theirs] }, { command, timeoutSec: 3600, asks: false });
    expect(once.PreToolUse).toEqual([
      theirs,
      { matcher: "^ExitSpecMode$", hooks: [{ type: "command", command, timeout: 3600 }] },
    ]);
    expect(once.PostToolUse).toEqual([
      { matcher: "^ExitSpecMode$", hooks: [{ type: "command", command, timeout: 3600 }] },
    ]);
    const twice = withDroidHooks(once, { command, timeoutSec: 600, asks: true });
    expect(twice.PreToolUse).toHaveLength(3);
    expect(twice.PreToolUse[2]?.matcher).toBe("^(Execute|Create|Edit|MultiEdit|ApplyPatch)$");
    expect(droidPlanHook(twice)?.timeout).toBe(600);
    const removed = withDroidHooks(twice, { command, timeoutSec: 600, asks: false, remove: true });
    expect(removed).toEqual({ PreToolUse: [theirs], PostToolUse: [] });
    expect(droidPlanHook(removed)).toBeNull();
  });

  it.each([
    ["Execute", { command: "rm -rf x", riskLevel: "low" }, { tool: "Bash", input: { command: "rm -rf x" } }],
    ["Create", { file_path: "/w/a", content: "x" }, { tool: "Write", input: { file_path: "/w/a" } }],
    ["Edit", { file_path: "/w/a", old_str: "a", new_str: "b" }, { tool: "Edit", input: { file_path: "/w/a" } }],
    ["MultiEdit", { file_path: "/w/a", edits: [] }, { tool: "Edit", input: { file_path: "/w/a" } }],
    ["ApplyPatch", { patch: "…" }, null],
    ["Execute", { cmd: "ls" }, null],
  ])("%s %j is asked as %j", (tool, input, ask) => {
    expect(droidAsk(tool, input)).toEqual(ask);
  });

  it("denies in the shape Droid reads (a hook's other answers approve the plan)", () => {
    expect(droidDeny("no")).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
    });
  });
});

describe("a project's own hooks for ExitSpecMode", () => {
  const group = (matcher: string | undefined, command: string) => ({ matcher, hooks: [{ type: "command", command }] });
  it.each([
    [{ hooksJson: { PreToolUse: [group("ExitSpecMode", "echo allow")] } }, true],
    [{ hooksJson: { PreToolUse: [group(undefined, "echo allow")] } }, true],
    [{ hooksJson: { PreToolUse: [group("Exit.*", "echo allow")] } }, true],
    [{ settingsJson: { hooks: { PreToolUse: [group("*", "echo allow")] } } }, true],
    [{ hooksJson: { PreToolUse: [group("Execute", "lint")] } }, false],
    [{ hooksJson: { PreToolUse: [group("^ExitSpecMode$", command)] } }, false],
    [{ hooksJson: { PostToolUse: [group("ExitSpecMode", "echo")] } }, false],
    [{}, false],
  ])("%j is a planted plan hook: %s", (files, planted) => {
    expect(plantedPlanHooks(files)).toBe(planted);
  });
});
