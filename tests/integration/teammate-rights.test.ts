import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, settle, testApi, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";

/*
 * Issue 41, classes 2 and 4 (beyond teammate-injection-attack.test.ts): adding a teammate is the act of one who
 * leads the team, the teammate is theirs (started by them), and a lead's model approves it into acceptEdits only
 * when that person may choose acceptEdits too. Rob (reviewer) starts the lead; an owner turns person approval off
 * and adds Mia (member) as one of its lead people.
 */
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});
const { person } = policyKit(() => api);
const approve = (to: string) => call("send_message", { type: "plan_approval_response", to, approve: true });

async function robsTeam(to: string) {
  const rob = await person("reviewer", "rob@example.com");
  const owner = await person("owner", "owner@example.com");
  const mia = await person("member", "mia@example.com");
  const ray = await person("reviewer", "ray@example.com");
  const started = await api.call(
    "POST",
    "/api/sessions",
    { workspace: api.workspace, model: "scripted", mode: "acceptEdits", script: [approve(to), { text: "ok" }] },
    rob,
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const lead = started.body.session.id as string;
  const team = await api.call("POST", "/api/teams", { sessionId: lead, name: "crew", personApproval: false }, owner);
  expect(team.status, JSON.stringify(team.body)).toBe(201);
  const teamId = team.body.team.id as string;
  const added = await api.call("POST", `/api/teams/${teamId}/leads`, { email: "mia@example.com" }, owner);
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { rob, owner, mia, ray, lead, teamId };
}

const mate = (name: string, file: string) => ({
  name,
  task: "tidy up",
  requirePlanApproval: true,
  script: [exitWith("# Tidy\n\n1. Tidy the readme.\n"), call("write", { path: file, content: "x\n" }), { text: "ok" }],
});

async function approvedByLead(lead: string, mateId: string, rob: { cookie: string }) {
  await waitFor("the plan request", async () => (await api.t.db.mailboxMessage.count()) > 0, 20_000);
  await api.call("POST", `/api/sessions/${lead}/messages`, { text: "answer your mail" }, rob);
  await settle(api, lead);
  return settle(api, mateId);
}

describe("who adds a teammate, and what the lead's model may approve it into", () => {
  it("a reviewer who is not one of the lead's people is refused, and no session is made", async () => {
    const { ray, teamId } = await robsTeam("x");
    const before = await api.t.db.session.count();
    const res = await api.call("POST", `/api/teams/${teamId}/teammates`, mate("x", "x.txt"), ray);
    expect(res.status).toBe(403);
    expect(await api.t.db.session.count()).toBe(before);
  });

  it("Mia, a lead person with a member's role: her teammate is hers, and the lead's approval gives it default", async () => {
    const { mia, rob, lead, teamId } = await robsTeam("mallory");
    const res = await api.call("POST", `/api/teams/${teamId}/teammates`, mate("mallory", "mallory.txt"), mia);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.sessionId as string;
    expect((await api.t.db.session.findUnique({ where: { id }, select: { startedBy: true } }))?.startedBy).toBe(
      mia.userId,
    );
    const { status } = await approvedByLead(lead, id, rob);
    expect(status).toBe("awaiting_permission");
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state.mode).toBe("default");
    expect(fs.existsSync(path.join(api.workspace, "mallory.txt"))).toBe(false);
  });

  it("Rob's own teammate (a reviewer's): the lead's approval gives it acceptEdits, and the write runs", async () => {
    const { rob, lead, teamId } = await robsTeam("tess");
    const res = await api.call("POST", `/api/teams/${teamId}/teammates`, mate("tess", "tess.txt"), rob);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.sessionId as string;
    await approvedByLead(lead, id, rob);
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state.mode).toBe("acceptEdits");
    expect(fs.readFileSync(path.join(api.workspace, "tess.txt"), "utf8")).toBe("x\n");
  });
});

describe("setting a teammate's plan aside is the lead's decision too", () => {
  it("a reviewer who is not one of the lead's people leaves the teammate's plan mode: refused, the plan still waits for the lead", async () => {
    const { rob, ray, teamId } = await robsTeam("x");
    const res = await api.call("POST", `/api/teams/${teamId}/teammates`, mate("vic", "vic.txt"), rob);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.sessionId as string;
    await waitFor("the plan request", async () => (await api.t.db.mailboxMessage.count()) > 0, 20_000);
    // The attack: Ray may decide plans in the workspace, but not this team's; leaving plan mode would set it aside.
    const left = await api.call("POST", `/api/sessions/${id}/mode`, { mode: "default" }, ray);
    expect(left.status, JSON.stringify(left.body)).toBe(403);
    expect(JSON.stringify(left.body)).toContain("team lead");
    const state = (await api.call("GET", `/api/sessions/${id}`)).body.state;
    expect(state).toMatchObject({ mode: "plan", pendingReview: { kind: "plan-review" } });
    expect((await api.t.db.review.findFirst({ where: { sessionId: id } }))?.status).toBe("pending");
    // Rob, the lead's person, may.
    const robLeft = await api.call("POST", `/api/sessions/${id}/mode`, { mode: "default" }, rob);
    expect(robLeft.status, JSON.stringify(robLeft.body)).toBe(200);
    expect((await api.t.db.review.findFirst({ where: { sessionId: id } }))?.status).toBe("abandoned");
  });

  it("before its plan is submitted too: a reviewer who is not the lead's takes the teammate out of plan mode — refused", async () => {
    const { rob, ray, teamId } = await robsTeam("x");
    const quiet = { ...mate("wes", "wes.txt"), script: [{ text: "still reading" }] };
    const res = await api.call("POST", `/api/teams/${teamId}/teammates`, quiet, rob);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.sessionId as string;
    await settle(api, id);
    for (const how of [
      () => api.call("POST", `/api/sessions/${id}/mode`, { mode: "acceptEdits" }, ray),
      () => api.call("POST", `/api/sessions/${id}/messages`, { text: "/plan off" }, ray),
    ]) {
      const tried = await how();
      expect(tried.status, JSON.stringify(tried.body)).toBe(403);
      expect(JSON.stringify(tried.body)).toContain("team lead");
    }
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state).toMatchObject({ mode: "plan", queuedMode: null });
  });
});
