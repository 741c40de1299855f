import { describe, expect, it } from "vitest";
import {
  approvalText,
  beneath,
  inKiloTerms,
  isPlanFileName,
  isPlanFileWrite,
  isPlanFollowup,
  kiloAsk,
} from "./kilo-hook";
import { kiloHookInput } from "./kilo-hook-input";

const CWD = "/home/ada/proj";

describe("Kilo's plan_exit rules", () => {
  it.each([
    ["bash", { command: "rm -rf x" }, { ask: { tool: "Bash", input: { command: "rm -rf x" } } }],
    ["write", { filePath: "a.txt", content: "x" }, { ask: { tool: "Write", input: { file_path: "a.txt" } } }],
    ["edit", { filePath: "/etc/passwd" }, { ask: { tool: "Edit", input: { file_path: "/etc/passwd" } } }],
    // The plan agent's own plan files are the planning: Kilo decides those.
    ["write", { filePath: `${CWD}/.kilo/plans/plan.md` }, { answer: {} }],
    ["edit", { filePath: ".opencode/plans/p.md" }, { answer: {} }],
    ["read", { filePath: "a.txt" }, { answer: {} }],
    ["glob", { pattern: "**" }, { answer: {} }],
  ])("with --asks, %s %j: %j", (tool, input, expected) => {
    expect(kiloAsk(tool, input, CWD, () => true)).toEqual(expected);
  });

  it("asks about a plan file's write when the disk says it is not one (a planted link), however it is named", () => {
    expect(kiloAsk("write", { filePath: ".kilo/plans/notes.md" }, CWD, () => false)).toEqual({
      ask: { tool: "Write", input: { file_path: ".kilo/plans/notes.md" } },
    });
  });

  it.each([
    ["1796634633647-calm-river.md", true],
    ["plan.md", true],
    ["../plan.md", false],
    ["a/plan.md", false],
    [".hidden.md", false],
    ["plan.txt", false],
  ])("%s is a session plan file's name: %s", (name, ok) => {
    expect(isPlanFileName(name)).toBe(ok);
  });

  it.each([
    ["bash", { cmd: "ls" }],
    ["write", { path: "a.txt" }],
    ["apply_patch", { patchText: "*** Begin Patch" }],
  ])("with --asks, a changing %s call it cannot read (%j) is refused", (tool, input) => {
    const next = kiloAsk(tool, input, CWD, () => true);
    expect("answer" in next && next.answer.block).toBe(true);
  });

  it.each([
    [`${CWD}/.kilo/plans/plan.md`, true],
    [".kilo/plans/2026-plan.md", true],
    [".kilo/plans/sub/plan.md", false],
    [".kilo/plans/../../src/app.ts", false],
    [".kilo/plans/../plans/x.md", false],
    [".kilo/plans/plan.txt", false],
    ["/home/ada/proj-other/.kilo/plans/p.md", false],
    ["src/.kilo/plans/p.md", false],
  ])("%s is a plan file: %s", (file, yes) => {
    expect(isPlanFileWrite("write", file, CWD)).toBe(yes);
  });

  it.each([
    ["/a/b", "/a/b/c", "c"],
    ["/a/b/", "/a/b/c/d", "c/d"],
    ["/a/b", "/a/bc", null],
    ["/a/b", "/a/b", null],
  ])("beneath(%s, %s) = %s", (root, file, rel) => {
    expect(beneath(root, file)).toBe(rel);
  });

  it("answers only Kilo's own follow-up question, in the session Plangate approved", () => {
    const q = { id: "que_1", sessionID: "ses_1", questions: [{ questionKey: "plan.followup.question" }] };
    expect(isPlanFollowup(q, "ses_1")).toBe(true);
    expect(isPlanFollowup(q, "ses_2")).toBe(false);
    expect(isPlanFollowup({ ...q, questions: [{ questionKey: "other" }] }, "ses_1")).toBe(false);
    expect(isPlanFollowup({ ...q, questions: [...q.questions, ...q.questions] }, "ses_1")).toBe(false);
    expect(isPlanFollowup({ ...q, id: 7 }, "ses_1")).toBe(false);
  });

  it("names plan_exit where Plangate's words name exit_plan_mode, and leads an approval with the go-ahead", () => {
    expect(inKiloTerms("Revise the plan file, then call exit_plan_mode again.")).toBe(
      "Revise the plan file, then call plan_exit again.",
    );
    const text = approvalText({ plan: "# P", message: "User has approved your plan.\n\n## Approved Plan\n\n# P" });
    expect(text.split("\n")[0]).toBe("The plan was approved on Plangate.");
    expect(text).toContain("## Approved Plan");
    expect(approvalText({ plan: "# Only the plan", message: null })).toContain("# Only the plan");
  });

  it.each([
    [{ event: "start", cwd: CWD }, true],
    [{ event: "plan_exit", session_id: "ses_1", cwd: CWD }, true],
    [{ event: "plan_exit", session_id: "ses_1", cwd: CWD, path: ".kilo/plans/p.md" }, true],
    [{ event: "plan_exit", session_id: "", cwd: CWD }, false],
    [{ event: "plan_exit", session_id: "ses_1", cwd: CWD, path: 3 }, false],
    [{ event: "plan_exit", session_id: "ses_1", cwd: CWD, worktree: CWD, session_plan: "1-a.md" }, true],
    [{ event: "plan_exit", session_id: "ses_1", cwd: CWD, session_plan: "../../.env.md" }, false],
    [{ event: "tool_call", session_id: "s", cwd: CWD, tool_name: "bash", input: { command: "ls" } }, true],
    [{ event: "tool_call", session_id: "s", cwd: CWD, tool_name: "bash", input: "ls" }, false],
    [{ event: "approve", cwd: CWD }, false],
  ])("the hook reads %j: %s", (input, ok) => {
    expect(kiloHookInput.safeParse(input).success).toBe(ok);
  });
});
