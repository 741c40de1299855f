import { describe, expect, it } from "vitest";
import { afterApproval, approvalText, beforeApproval, inPiTerms, piAsk } from "./pi-hook";
import { piHookInput } from "./pi-hook-input";

describe("pi's plan mode rules", () => {
  it.each([
    ["edit", true],
    ["write", true],
    ["bash", true],
    ["read", false],
    ["grep", false],
    ["submit_plan", false],
    // A tool another extension or package adds is refused too: only reading is known to change nothing.
    ["deploy", true],
  ])("before an approval, %s is refused: %s", (tool, refused) => {
    const answer = beforeApproval(tool);
    expect(answer.block === true).toBe(refused);
    if (refused) expect(answer.reason).toContain("submit_plan");
  });

  it.each([
    ["bash", { command: "rm -rf x" }, { tool: "Bash", input: { command: "rm -rf x" } }],
    ["write", { path: "a.txt", content: "x" }, { tool: "Write", input: { file_path: "a.txt" } }],
    ["edit", { path: "a.txt", edits: [] }, { tool: "Edit", input: { file_path: "a.txt" } }],
    ["read", { path: "a.txt" }, null],
    ["bash", { cmd: "ls" }, null],
  ])("%s %j is asked as %j", (tool, input, ask) => {
    expect(piAsk(tool, input)).toEqual(ask);
  });

  it.each([
    // [tool, input, asks, expected kind]
    ["bash", { command: "ls" }, false, "go on"],
    ["bash", { command: "ls" }, true, "ask"],
    ["read", { path: "a" }, true, "go on"],
    ["write", { file: "a" }, true, "refused"],
  ] as const)("after an approval, %s %j with asks=%s: %s", (tool, input, asks, kind) => {
    const next = afterApproval(tool, { ...input }, asks);
    const got = "ask" in next ? "ask" : next.answer.block ? "refused" : "go on";
    expect(got).toBe(kind);
  });

  it("names submit_plan where Plangate's words name exit_plan_mode, and leads an approval with the go-ahead", () => {
    expect(inPiTerms("Revise the plan file, then call exit_plan_mode again.")).toBe(
      "Revise the plan file, then call submit_plan again.",
    );
    const text = approvalText({ plan: "# P", message: "User has approved your plan.\n\n## Approved Plan\n\n# P" });
    expect(text.split("\n")[0]).toMatch(/^The plan was approved on Plangate: edit, write, bash are allowed now\./);
    expect(text).toContain("## Approved Plan");
    expect(approvalText({ plan: "# Only the plan", message: null })).toContain("# Only the plan");
  });

  it("reads only the messages the extension sends", () => {
    expect(piHookInput.safeParse({ event: "start", cwd: "/w" }).success).toBe(true);
    expect(piHookInput.safeParse({ event: "submit_plan", session_id: "s", cwd: "/w", plan: "# P" }).success).toBe(true);
    expect(piHookInput.safeParse({ event: "submit_plan", session_id: "", cwd: "/w", plan: "# P" }).success).toBe(false);
    expect(piHookInput.safeParse({ event: "approve", session_id: "s", cwd: "/w" }).success).toBe(false);
    expect(
      piHookInput.safeParse({ event: "tool_call", session_id: "s", cwd: "/w", tool_name: "bash", input: "ls" }).success,
    ).toBe(false);
  });
});
