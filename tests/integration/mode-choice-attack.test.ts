import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToken } from "../../lib/db/people/tokens";
import { readEvents } from "../../lib/db/session-log/read-events";
import { awaitReview, call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { exitWith, ofType, PLAN_V1 } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";

// Issue 41, class 2, as the attack: a member (who starts sessions and chats, but does not decide) tries every way a
// session's mode can become one that answers asks in a person's place. Each is refused with a 403 that says why, or
// carries no more than default; the effect checked is the write such a mode would have let through unasked.
let api: Api;
beforeEach(() => {
  api = testApi({ env: { PLANGATE_ENABLE_BYPASS: "1" } });
});
afterEach(async () => {
  await api?.close();
});
const { person, setPolicy } = policyKit(() => api);

const DECIDING = ["acceptEdits", "auto", "bypassPermissions"] as const;
const WHY = /needs the right to decide.*reviewer or above.*plan and default/s;
const write = (file = "owned.txt") => call("write", { path: file, content: "owned\n" });
const written = (file = "owned.txt") => fs.existsSync(path.join(api.workspace, file));
type As = { cookie: string } | { bearer: string };
const stateOf = async (id: string) => (await api.call("GET", `/api/sessions/${id}`)).body.state;
const say = (id: string, text: string, as?: As) => api.call("POST", `/api/sessions/${id}/messages`, { text }, as);

/** A session the operator put in acceptEdits (a person with the right chose it), whose first step writes. */
const acceptEditsSession = () => startScripted(api, [write(), { text: "done" }], { mode: "acceptEdits" });

/** The member drives the session one turn: its write must ask (nobody answers it), so nothing is written. */
async function writeAsks(id: string, as: As) {
  expect((await say(id, "go", as)).status).toBe(202);
  expect((await settle(api, id)).status).toBe("awaiting_permission");
  expect(written()).toBe(false);
}

describe("choosing a mode that answers asks needs the decide right (class 2)", () => {
  it.each(DECIDING)(
    "creating a session in %s: 403 for a member, with why; nothing created; a reviewer may",
    async (mode) => {
      const member = await person("member");
      const before = await api.t.db.session.count();
      const res = await api.call(
        "POST",
        "/api/sessions",
        { workspace: api.workspace, model: "scripted", script: [write(), { text: "done" }], mode },
        member,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.message).toMatch(WHY);
      expect(await api.t.db.session.count()).toBe(before);
      // The plan and default modes stay a member's; the same mode is a reviewer's to choose.
      for (const own of ["plan", "default"]) {
        const ok = await api.call("POST", "/api/sessions", { workspace: api.workspace, mode: own }, member);
        expect(ok.status, own).toBe(201);
      }
      const reviewer = await person("reviewer");
      const theirs = await api.call("POST", "/api/sessions", { workspace: api.workspace, mode }, reviewer);
      expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
      expect(theirs.body.state.mode).toBe(mode);
    },
  );

  it.each(DECIDING)(
    "the mode control, Shift+Tab and the menu (POST …/mode) to %s: 403 for a member; plan and default are theirs",
    async (mode) => {
      const member = await person("member");
      const id = await startScripted(api, [write(), { text: "done" }]);
      const res = await api.call("POST", `/api/sessions/${id}/mode`, { mode }, member);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(WHY);
      expect((await stateOf(id)).mode).toBe("default");
      expect((await api.call("POST", `/api/sessions/${id}/mode`, { mode: "plan" }, member)).status).toBe(200);
      expect((await api.call("POST", `/api/sessions/${id}/mode`, { mode: "default" }, member)).status).toBe(200);
      await writeAsks(id, member);
      // A reviewer's token chooses it for its person (who may); an agent token chooses nothing.
      const reviewer = await person("reviewer");
      const { secret: reviewerToken } = await createToken(api.t.db, {
        userId: reviewer.userId,
        name: "r",
        scope: "reviewer",
      });
      const { secret: agentToken } = await createToken(api.t.db, {
        userId: reviewer.userId,
        name: "a",
        scope: "agent",
      });
      expect((await api.call("POST", `/api/sessions/${id}/mode`, { mode }, { bearer: agentToken })).status).toBe(403);
      const chosen = await api.call("POST", `/api/sessions/${id}/mode`, { mode }, { bearer: reviewerToken });
      expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
      // The member's turn waits on its ask: the choice takes effect at the next step.
      expect(chosen.body).toMatchObject({ outcome: "queued", pending: mode });
    },
  );

  it("a plan approval into acceptEdits (the review's mode) is a decision: 403 for a member, the plan keeps waiting", async () => {
    const member = await person("member");
    const id = await startScripted(api, [exitWith(PLAN_V1), write(), { text: "done" }], { mode: "plan" }).then(
      async (s) => (await say(s, "plan it", member), s),
    );
    const reviewId = await awaitReview(api, id);
    const res = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", mode: "acceptEdits" },
      member,
    );
    expect(res.status).toBe(403);
    expect((await stateOf(id)).mode).toBe("plan");
    expect(written()).toBe(false);
  });

  it("/plan off (and the Plan × chip) returns to the mode plan was entered from only when the member may choose it", async () => {
    const member = await person("member");
    const id = await acceptEditsSession();
    expect((await say(id, "/plan", member)).status).toBe(202);
    expect(await stateOf(id)).toMatchObject({ mode: "plan", prePlanMode: "acceptEdits" });
    const off = await say(id, "/plan off", member);
    expect(off.status).toBe(202);
    expect((await stateOf(id)).mode).toBe("default");
    await writeAsks(id, member);
    // A reviewer leaving plan mode the same way goes back to acceptEdits.
    const reviewer = await person("reviewer");
    const other = await acceptEditsSession();
    expect((await say(other, "/plan", reviewer)).status).toBe(202);
    expect((await say(other, "/plan off", reviewer)).status).toBe(202);
    expect((await stateOf(other)).mode).toBe("acceptEdits");
  });

  it("a fork carries acceptEdits only for a forker who may choose it: a member's fork is in default", async () => {
    const member = await person("member");
    const reviewer = await person("reviewer");
    const source = await acceptEditsSession();
    const forked = await api.call("POST", `/api/sessions/${source}/fork`, {}, member);
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const fork = forked.body.session.id as string;
    expect((await stateOf(fork)).mode).toBe("default");
    expect(ofType(await readEvents(api.t.db, fork), "mode.changed").at(-1)).toMatchObject({
      to: "default",
      cause: "fork",
    });
    await writeAsks(fork, member);
    const theirs = await api.call("POST", `/api/sessions/${source}/fork`, {}, reviewer);
    expect((await stateOf(theirs.body.session.id)).mode).toBe("acceptEdits");
  });

  it("a resume carries acceptEdits only for a person who may choose it: a member's resume leaves default", async () => {
    const member = await person("member");
    const id = await acceptEditsSession();
    const resumed = await api.call("POST", `/api/sessions/${id}/resume`, undefined, member);
    expect(resumed.status).toBe(202);
    expect(resumed.body.mode).toBe("default");
    await writeAsks(id, member);
  });

  it("an import carries the file's acceptEdits only for an importer who may choose it: a member's import is in default", async () => {
    const member = await person("member");
    const source = await acceptEditsSession();
    const exported = (await api.call("GET", `/api/sessions/${source}/export?format=json`)).body;
    const imported = await api.call("POST", "/api/sessions/import", exported, member);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const id = imported.body.session.id as string;
    expect((await stateOf(id)).mode).toBe("default");
    await writeAsks(id, member);
  });

  it("a team lead's model approves a teammate into no mode the lead session's starter may not choose", async () => {
    const member = await person("member");
    const owner = await person("owner");
    const started = await api.call(
      "POST",
      "/api/sessions",
      {
        workspace: api.workspace,
        model: "scripted",
        script: [
          call("send_message", { type: "plan_approval_response", to: "alice", approve: true }),
          { text: "approved" },
        ],
      },
      member,
    );
    const lead = started.body.session.id as string;
    const team = await api.call("POST", "/api/teams", { sessionId: lead, name: "crew" }, member);
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.team.id as string;
    // An owner lets the lead's model answer; a reviewer put the lead in acceptEdits.
    expect((await api.call("PATCH", `/api/teams/${teamId}`, { personApproval: false }, owner)).status).toBe(200);
    expect((await api.call("POST", `/api/sessions/${lead}/mode`, { mode: "acceptEdits" })).status).toBe(200);
    const mate = await api.call(
      "POST",
      `/api/teams/${teamId}/teammates`,
      {
        name: "alice",
        task: "work",
        requirePlanApproval: true,
        script: [exitWith("# Alice\n\n1. write a.txt\n"), write("a.txt"), { text: "alice done" }],
      },
      member,
    );
    expect(mate.status, JSON.stringify(mate.body)).toBe(201);
    const alice = mate.body.sessionId as string;
    await waitFor(
      "the lead's approval",
      async () => ofType(await readEvents(api.t.db, alice), "review.answered").length > 0,
      20_000,
    );
    expect((await settle(api, alice)).status).toBe("awaiting_permission");
    expect((await stateOf(alice)).mode).toBe("default");
    expect(written("a.txt")).toBe(false);
  });
});

describe("/plan off while a plan waits for review (class 2)", () => {
  async function waitingPlan(as: As) {
    const id = await startScripted(api, [exitWith(PLAN_V1), write(), { text: "done" }], { mode: "plan" });
    expect((await say(id, "plan it", as)).status).toBe(202);
    return { id, reviewId: await awaitReview(api, id) };
  }
  const reviewRow = (id: string) => api.t.db.review.findUnique({ where: { id } });

  it("under a review policy a member's /plan off, the Plan × chip and the mode control are 403: the plan keeps waiting in plan mode", async () => {
    await setPolicy({ approvals: 2 });
    const member = await person("member");
    const { id, reviewId } = await waitingPlan(member);
    const off = await say(id, "/plan off", member);
    expect(off.status).toBe(403);
    expect(off.body.error.message).toMatch(/review policy.*decide/s);
    expect((await api.call("POST", `/api/sessions/${id}/mode`, { mode: "default" }, member)).status).toBe(403);
    expect(await stateOf(id)).toMatchObject({ mode: "plan", pendingReview: { id: reviewId } });
    expect((await reviewRow(reviewId))?.status).toBe("pending");
    expect(written()).toBe(false);
  });

  it("a reviewer's /plan off under a policy sets the review aside, signed, in the timeline and the audit log", async () => {
    await setPolicy({ approvals: 2 });
    const member = await person("member");
    const reviewer = await person("reviewer");
    const { id, reviewId } = await waitingPlan(member);
    expect((await say(id, "/plan off", reviewer)).status).toBe(202);
    expect((await stateOf(id)).mode).toBe("default");
    const row = await reviewRow(reviewId);
    expect(row).toMatchObject({ status: "abandoned", deciderId: reviewer.userId });
    const answered = ofType(await readEvents(api.t.db, id), "review.answered");
    expect(answered.at(-1)).toMatchObject({ reviewId, decision: "abandon", by: expect.stringContaining("p2") });
    const audit = await api.t.db.auditEntry.findMany({ where: { subject: reviewId } });
    expect(audit.map((a) => [a.kind, a.userId])).toEqual([["review.abandoned", reviewer.userId]]);
    expect(written()).toBe(false);
  });

  it("with no policy a member's /plan off sets the review aside, signed by the member", async () => {
    const member = await person("member");
    const { id, reviewId } = await waitingPlan(member);
    const off = await say(id, "/plan off", member);
    expect(off.status, JSON.stringify(off.body)).toBe(202);
    expect((await stateOf(id)).mode).toBe("default");
    expect(await reviewRow(reviewId)).toMatchObject({ status: "abandoned", deciderId: member.userId });
    const audit = await api.t.db.auditEntry.findMany({ where: { subject: reviewId } });
    expect(audit.map((a) => [a.kind, a.userId])).toEqual([["review.abandoned", member.userId]]);
    // The agent is told plan mode is off; its turn ended, and nothing ran after the review.
    expect(written()).toBe(false);
  });
});
