import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, settle, testApi, type Api } from "../helpers/api";
import { signedInCookie } from "../helpers/people";
import { exitWith, ofType } from "../helpers/plan-kit";
import { teamKit } from "../helpers/team-kit";
import { waitFor } from "../helpers/poll";

// Issue 27, on both engines: a teammate's plan under a review policy. The lead's model cannot approve it, and
// the lead's answer releases it only once people met the policy.
let api: Api;
afterEach(async () => {
  await api?.close();
});
const { newTeam, spawn, statusOf, awaiting, pendingFrom } = teamKit(() => api);

/** A fresh server whose workspace needs two people's approvals. */
async function twoApprovals() {
  api = testApi();
  const set = await api.call("PUT", "/api/policies", {
    workspace: api.workspace,
    approvals: 2,
    allowSelfApproval: true,
    paths: [],
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
}

describe("teams under a review policy", () => {
  it("under a review policy the lead's model cannot approve a teammate's plan: it waits for people", async () => {
    await twoApprovals();
    const { lead, teamId } = await newTeam(
      [call("send_message", { type: "plan_approval_response", to: "alice", approve: true }), { text: "lead done" }],
      "acceptEdits",
      // An owner (the operator) let the lead's model answer: the policy still needs people.
      { personApproval: false },
    );
    const alice = await spawn(teamId, "alice", [
      exitWith("# Alice\n\n1. work\n"),
      call("write", { path: "a.txt", content: "a\n" }),
      { text: "alice wrote a.txt" },
    ]);
    const { events } = await waitFor("the lead's attempt", async () => {
      const s = await settle(api, lead);
      return s.status === "idle" && ofType(s.events, "tool.result").length === 1 ? s : undefined;
    });
    const [attempt] = ofType(events, "tool.result");
    expect(attempt?.ok).toBe(false);
    expect(String(attempt?.error)).toMatch(/review policy needs people/);
    expect(await statusOf(alice)).toBe("awaiting_review");
    expect(fs.existsSync(path.join(api.workspace, "a.txt"))).toBe(false);
    expect(await api.t.db.review.count({ where: { sessionId: alice, status: "pending" } })).toBe(1);
  });

  it("under a review policy a teammate's plan is released once the policy and the lead's mailbox answer are both met", async () => {
    await twoApprovals();
    const { teamId } = await newTeam();
    const alice = await spawn(teamId, "alice", [exitWith("# Alice\n\n1. work\n"), { text: "alice done" }]);
    await awaiting(alice);
    const request = (await pendingFrom(teamId, alice))!;
    const reviewId = request.requestId as string;
    const [rae, sam] = [
      await signedInCookie(api.t.db, "rae@example.com", [{ root: api.workspace, role: "reviewer" }]),
      await signedInCookie(api.t.db, "sam@example.com", [{ root: api.workspace, role: "reviewer" }]),
    ];
    const desk = (as: { cookie: string }, decision = "approve") =>
      api.call("POST", `/api/reviews/${reviewId}/decision`, { decision }, as);
    // Sending back is the lead's; approvals from the session page count, but two of them do not release it.
    expect((await desk(rae, "reject")).status).toBe(403);
    expect((await desk(rae)).body.review.status).toBe("pending");
    expect((await desk(sam)).body.review.status).toBe("pending");
    // The policy is met now, but a repeated approval from the session page still does not release it: a 409 saying so.
    const again = await desk(sam);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("already_decided");
    expect(await statusOf(alice)).toBe("awaiting_review");
    // The lead's answer (an owner of the workspace, from the mailbox) releases it.
    const owner = await signedInCookie(api.t.db, "olga@example.com", [{ root: api.workspace, role: "owner" }]);
    const answer = await api.call("POST", `/api/teams/${teamId}/mailbox/${request.id}/reply`, { approve: true }, owner);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await api.t.db.review.findUnique({ where: { id: reviewId } }))?.status).toBe("approved");
  });
});
