import { describe, expect, it } from "vitest";
import { approvalCounts, approvalText, beforeApproval, inClineTerms, stillWaiting } from "./cline-hook";
import { clineHookInput } from "./cline-hook-input";

describe("Cline's plan mode rules (Plangate's plugin)", () => {
  it.each([
    ["editor", true],
    ["run_commands", true],
    ["spawn_agent", true],
    ["team_create", true],
    // It would carry what was read out before anyone saw a plan.
    ["fetch_web_content", true],
    // A tool another plugin adds is skipped too: only reading is known to change nothing.
    ["deploy", true],
    ["read_files", false],
    ["search_codebase", false],
    ["ask_question", false],
    ["submit_plan", false],
  ])("before an approval, %s is skipped: %s", (tool, skipped) => {
    const answer = beforeApproval(tool);
    expect(answer?.skip === true).toBe(skipped);
    if (skipped) expect(answer?.reason).toContain("submit_plan");
  });

  it.each([
    [undefined, 5, false],
    [3, 3, false],
    [3, 4, true],
  ])("approved at iteration %s counts at iteration %s: %s", (at, now, counts) => {
    expect(approvalCounts(at, now)).toBe(counts);
  });

  it("names submit_plan where Plangate's words name exit_plan_mode; a waiting plan is asked for again", () => {
    expect(inClineTerms("Revise, then call exit_plan_mode again.")).toBe("Revise, then call submit_plan again.");
    expect(approvalText({ plan: "# P", message: null }).split("\n")[0]).toMatch(/^The plan was approved on Plangate/);
    expect(stillWaiting("http://x")).toContain("Call submit_plan again with the same plan");
  });

  it.each([
    [{ event: "start", cwd: "/p" }, true],
    [{ event: "submit_plan", session_id: "s", cwd: "/p", plan: "# P" }, true],
    [{ event: "submit_plan", session_id: "s", cwd: "/p", plan: "# P", review_id: "rev_1" }, true],
    [{ event: "submit_plan", session_id: "s", cwd: "/p", plan: 3 }, false],
    [{ event: "submit_plan", session_id: "", cwd: "/p", plan: "# P" }, false],
    [{ event: "tool_call", session_id: "s", cwd: "/p" }, false],
  ])("the hook reads %j: %s", (input, ok) => {
    expect(clineHookInput.safeParse(input).success).toBe(ok);
  });
});
