import { describe, expect, it } from "vitest";
import { hookDecision, terminalAnswer, type ClaudeHookInput } from "./claude-code-hook";

const input: ClaudeHookInput = {
  session_id: "s1",
  cwd: "/w",
  hook_event_name: "PermissionRequest",
  tool_name: "ExitPlanMode",
  tool_input: { plan: "# Plan\n\n1. a\n", planFilePath: "/h/.claude/plans/p.md" },
};

describe("hookDecision", () => {
  it("approves with the decided plan as updatedInput and the mode, so Claude Code does not ignore the allow", () => {
    expect(
      hookDecision(input, { status: "approved", plan: "# Plan\n\n1. a\n2. b\n", mode: "acceptEdits", message: "x" }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "allow",
          updatedInput: { plan: "# Plan\n\n1. a\n2. b\n", planFilePath: "/h/.claude/plans/p.md" },
          updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
        },
      },
    });
  });

  it.each([
    ["default", "default"],
    ["auto", "acceptEdits"],
  ])("maps Plangate's %s to Claude Code's %s", (mode, claude) => {
    const d = hookDecision(input, { status: "approved", plan: "p", mode, message: null }) as {
      hookSpecificOutput: { decision: { updatedPermissions: { mode: string }[] } };
    };
    expect(d.hookSpecificOutput.decision.updatedPermissions[0]?.mode).toBe(claude);
  });

  it("denies with the text the model must read; says nothing for a terminal answer or a pending review", () => {
    expect(
      hookDecision(input, { status: "rejected", plan: "p", mode: "plan", message: "Too vague\n\nline 3: which file?" }),
    ).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "Too vague\n\nline 3: which file?" },
      },
    });
    expect(hookDecision(input, { status: "answered_elsewhere", plan: "p", mode: "plan", message: null })).toBeNull();
    expect(hookDecision(input, { status: "pending", plan: "p", mode: "plan", message: null })).toBeNull();
  });
});

const line = (content: unknown[]) => JSON.stringify({ type: "x", message: { content } });

describe("terminalAnswer", () => {
  it.each<[string, string, "approved" | "rejected" | null]>([
    ["no ExitPlanMode yet", line([{ type: "text", text: "hi" }]), null],
    ["asked, not answered", line([{ type: "tool_use", id: "t1", name: "ExitPlanMode" }]), null],
    [
      "approved",
      [
        line([{ type: "tool_use", id: "t1", name: "ExitPlanMode" }]),
        line([{ type: "tool_result", tool_use_id: "t1", content: "User has approved your plan" }]),
      ].join("\n"),
      "approved",
    ],
    [
      "rejected",
      [
        line([{ type: "tool_use", id: "t1", name: "ExitPlanMode" }]),
        line([{ type: "tool_result", tool_use_id: "t1", is_error: true, content: "no" }]),
      ].join("\n"),
      "rejected",
    ],
    [
      "an earlier plan's answer does not count for the newer one",
      [
        line([{ type: "tool_use", id: "t1", name: "ExitPlanMode" }]),
        line([{ type: "tool_result", tool_use_id: "t1", is_error: true }]),
        line([{ type: "tool_use", id: "t2", name: "ExitPlanMode" }]),
      ].join("\n"),
      null,
    ],
    [
      "the hook's own decision is not the terminal's",
      [
        line([{ type: "tool_use", id: "t1", name: "ExitPlanMode" }]),
        JSON.stringify({
          type: "user",
          permissionDecision: { decision: "accept", source: "hook" },
          message: { content: [{ type: "tool_result", tool_use_id: "t1" }] },
        }),
      ].join("\n"),
      null,
    ],
    [
      "a half-written last line is skipped",
      `${line([{ type: "tool_use", id: "t1", name: "ExitPlanMode" }])}\n{"message":`,
      null,
    ],
  ])("%s", (_name, transcript, want) => {
    expect(terminalAnswer(transcript)).toBe(want);
  });
});
