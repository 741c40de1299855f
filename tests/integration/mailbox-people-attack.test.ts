import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testApi, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { signedInCookie } from "../helpers/people";
import { waitFor } from "../helpers/poll";

// Issue 26, as the attack: a team's mailbox (where a teammate's plan is approved) is answered by its lead
// people only — the person who started the lead session, and those an owner adds — not by any reviewer of the
// workspace. A reviewer who is not one of them approves: 403, and the teammate's request stays pending.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

async function teamWithPendingPlan(lead: { cookie: string }) {
  const started = await api.call("POST", "/api/sessions", { title: "Lead", model: "scripted", script: [] }, lead);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const team = await api.call("POST", "/api/teams", { sessionId: started.body.session.id, name: "Leads" }, lead);
  expect(team.status, JSON.stringify(team.body)).toBe(201);
  const teamId = team.body.team.id as string;
  const mate = await api.call(
    "POST",
    `/api/teams/${teamId}/teammates`,
    {
      name: "alice",
      task: "plan the work",
      requirePlanApproval: true,
      script: [exitWith("# Alice\n\n1. work\n"), { text: "done" }],
    },
    lead,
  );
  expect(mate.status, JSON.stringify(mate.body)).toBe(201);
  const request = await waitFor(
    "alice's request",
    async () =>
      ((await api.call("GET", `/api/teams/${teamId}/mailbox?status=pending`)).body.messages as { id: string }[])[0],
  );
  return { teamId, requestId: request.id };
}
const pending = async (teamId: string) =>
  ((await api.call("GET", `/api/teams/${teamId}/mailbox?status=pending`)).body.messages as unknown[]).length;

describe("a team's mailbox is its lead people's", () => {
  it("another reviewer's answer is 403, and they cannot add themselves, until an owner adds them as a lead person", async () => {
    const lea = await signedInCookie(api.t.db, "lea@example.com", [{ root: "/", role: "reviewer" }]);
    const rex = await signedInCookie(api.t.db, "rex@example.com", [{ root: "/", role: "reviewer" }]);
    const owner = await signedInCookie(api.t.db, "own@example.com", [{ root: "/", role: "owner" }]);
    const { teamId, requestId } = await teamWithPendingPlan(lea);
    const reply = (as: { cookie: string }) =>
      api.call("POST", `/api/teams/${teamId}/mailbox/${requestId}/reply`, { approve: true }, as);

    expect((await reply(rex)).status).toBe(403);
    expect(await pending(teamId)).toBe(1);
    // Adding lead people is an owner's: a reviewer cannot add themselves.
    expect((await api.call("POST", `/api/teams/${teamId}/leads`, { email: "rex@example.com" }, rex)).status).toBe(403);
    expect((await reply(rex)).status).toBe(403);
    expect(await pending(teamId)).toBe(1);

    const added = await api.call("POST", `/api/teams/${teamId}/leads`, { email: "rex@example.com" }, owner);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.leads.map((l: { email: string }) => l.email)).toEqual(["rex@example.com"]);
    const answered = await reply(rex);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(await pending(teamId)).toBe(0);
    const audit = await api.t.db.auditEntry.findMany({ where: { kind: "team.lead.added" } });
    expect(audit.map((a) => [a.name, a.subject])).toEqual([["own", "rex@example.com"]]);
  });
});
