import { describe, expect, it } from "vitest";
import { receivesOf } from "./agent-receives";

describe("receivesOf: what an outside agent can be given with an approval", () => {
  it.each([
    ["build", false, null],
    ["claude-code", true, { editedPlan: true, notesOnApproval: false, modes: ["default", "acceptEdits"] }],
    ["opencode", true, { editedPlan: true, notesOnApproval: false, modes: [] }],
    // Not measured: promised nothing beyond the plan it sent.
    ["gemini-cli", true, { editedPlan: false, notesOnApproval: false, modes: [] }],
  ])("%s", (agent, external, want) => {
    const got = receivesOf(agent, external);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatchObject(want);
  });

  it("says it in words on the card", () => {
    expect(receivesOf("opencode", true)?.words).toBe(
      "OpenCode receives the plan as you approve it (your edits and applied suggestions included) with an approval; it picks its own mode. Notes, comments and replies reach it only with Request changes.",
    );
  });
});
