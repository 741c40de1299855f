import { describe, expect, it } from "vitest";
import type { TeamMembership } from "../session/log/fold";
import { leadTeamOf, type Submitter, submissionEvents, supersedeEvents } from "./submit-plan";

const team = (role: TeamMembership["role"], requirePlanApproval: boolean): TeamMembership => ({
  id: "team_1",
  role,
  name: "worker",
  leadSessionId: "ses_lead",
  requirePlanApproval,
});

const base = { version: 3, reviewId: "rev_1", callId: "call_1" };
const asked = {
  type: "review.asked",
  payload: { reviewId: "rev_1", kind: "plan-review", toolCallId: "call_1", planVersion: 3 },
};

describe("submissionEvents", () => {
  const cases: [string, TeamMembership | null, Submitter, string | null][] = [
    ["no team", null, "ours", null],
    ["a lead", team("lead", true), "ours", null],
    ["a teammate its lead need not approve", team("teammate", false), "outside", null],
    [
      "our teammate needing approval",
      team("teammate", true),
      "ours",
      "Plan version 3 submitted to the team lead for approval (request rev_1); waiting for the answer.",
    ],
    [
      "an outside teammate needing approval",
      team("teammate", true),
      "outside",
      "Plan version 3 sent to the team lead's mailbox for approval.",
    ],
  ];
  it.each(cases)("%s", (_, t, by, notice) => {
    const events = submissionEvents({ ...base, team: t }, by);
    expect(events).toEqual(
      notice === null ? [asked] : [asked, { type: "notice", payload: { level: "info", text: notice } }],
    );
    // The notice says the lead decides exactly when the rows put the plan in the lead's mailbox.
    expect(leadTeamOf(t) !== null).toBe(notice !== null);
  });
});

describe("supersedeEvents", () => {
  it("supersedes the pending review, and nothing when none is pending", () => {
    expect(supersedeEvents({ pendingReview: { id: "rev_0", kind: "plan-review" } })).toEqual([
      { type: "review.answered", payload: { reviewId: "rev_0", decision: "superseded" } },
    ]);
    expect(supersedeEvents({ pendingReview: null })).toEqual([]);
  });
});
