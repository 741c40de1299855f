import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "../../lib/auth/rules/rights";
import { readEvents } from "../../lib/db/session-log/read-events";
import { call, results, settle, testApi, type Api } from "../helpers/api";
import { exitWith, ofType } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";

// Issue 41, class 4, as the attack: a team made without saying `personApproval` had its lead's model approve a
// teammate's plan, which then wrote. A missing field means person approval on, for everyone; only an owner turns
// it off, explicitly, and that is signed in the audit log.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});
const { person } = policyKit(() => api);
type As = { cookie: string };
const approve = call("send_message", { type: "plan_approval_response", to: "alice", approve: true });

/** A lead in acceptEdits (a reviewer chose it) whose model approves alice's plan; alice's plan writes a.txt. */
async function leadAndTeam(creator: As, body: Record<string, unknown> = {}) {
  const reviewer = await person("reviewer");
  const started = await api.call(
    "POST",
    "/api/sessions",
    { workspace: api.workspace, model: "scripted", mode: "acceptEdits", script: [approve, { text: "answered" }] },
    reviewer,
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const lead = started.body.session.id as string;
  const team = await api.call("POST", "/api/teams", { sessionId: lead, name: "crew", ...body }, creator);
  return { lead, reviewer, team };
}

async function spawnAlice(teamId: string, as: As) {
  const mate = await api.call(
    "POST",
    `/api/teams/${teamId}/teammates`,
    {
      name: "alice",
      task: "work",
      requirePlanApproval: true,
      script: [
        exitWith("# Alice\n\n1. write a.txt\n"),
        call("write", { path: "a.txt", content: "a\n" }),
        { text: "ok" },
      ],
    },
    as,
  );
  expect(mate.status, JSON.stringify(mate.body)).toBe(201);
  return mate.body.sessionId as string;
}

describe("a team has person approval unless an owner turned it off (class 4)", () => {
  it.each<Role>(["member", "reviewer", "owner"])(
    "made without the field (by a person whose role is %s): person approval is on; the lead's model's approval is refused and nothing is written",
    async (role) => {
      const creator = await person(role);
      const { lead, reviewer, team } = await leadAndTeam(creator);
      expect(team.status, JSON.stringify(team.body)).toBe(201);
      expect(team.body.team.personApproval).toBe(true);
      const teamId = team.body.team.id as string;
      const alice = await spawnAlice(teamId, reviewer);
      await waitFor(
        "alice's request",
        async () => (await api.call("GET", `/api/sessions/${alice}`)).body.state.status === "awaiting_review",
        20_000,
      );
      // The lead's model tries anyway, when a person gives it a turn.
      await api.call("POST", `/api/sessions/${lead}/messages`, { text: "answer alice" }, reviewer);
      await waitFor("the lead's answer", async () => results((await settle(api, lead)).events).length > 0, 20_000);
      expect(results(await readEvents(api.t.db, lead))[0]).toMatchObject({
        ok: false,
        error: expect.stringContaining("requires a person"),
      });
      expect((await api.call("GET", `/api/sessions/${alice}`)).body.state.status).toBe("awaiting_review");
      expect(ofType(await readEvents(api.t.db, alice), "review.answered")).toEqual([]);
      expect(fs.existsSync(path.join(api.workspace, "a.txt"))).toBe(false);
    },
  );

  it("turning it off is an owner's explicit act, signed in the audit log; a member's or reviewer's is 403", async () => {
    const member = await person("member");
    const reviewer = await person("reviewer");
    const owner = await person("owner");
    for (const as of [member, reviewer]) {
      const { team } = await leadAndTeam(as, { personApproval: false });
      expect(team.status).toBe(403);
    }
    expect(await api.t.db.team.count()).toBe(0);
    const { team } = await leadAndTeam(owner, { personApproval: false });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    expect(team.body.team.personApproval).toBe(false);
    const teamId = team.body.team.id as string;
    const patch = (on: boolean, as: As) => api.call("PATCH", `/api/teams/${teamId}`, { personApproval: on }, as);
    expect((await patch(true, reviewer)).status).toBe(403);
    expect((await patch(true, owner)).status).toBe(200);
    expect((await patch(false, member)).status).toBe(403);
    expect((await patch(false, owner)).status).toBe(200);
    const audit = await api.t.db.auditEntry.findMany({ where: { subject: teamId }, orderBy: { at: "asc" } });
    expect(audit.map((a) => [a.kind, a.userId, JSON.parse(a.detail).personApproval])).toEqual([
      ["team.person_approval", owner.userId, false],
      ["team.person_approval", owner.userId, true],
      ["team.person_approval", owner.userId, false],
    ]);
    // A field that is not a boolean is a 400 naming it, and changes nothing.
    const bad = await api.call("PATCH", `/api/teams/${teamId}`, { personApproval: null }, owner);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/personApproval/);
    expect((await api.t.db.team.findUnique({ where: { id: teamId } }))?.personApproval).toBe(false);
  });

  it("a Team row written without the column (an older writer, a hand-made row) has person approval on", async () => {
    const { lead } = await leadAndTeam(await person("owner"));
    await api.t.db.team.deleteMany({});
    await api.t.db.$executeRawUnsafe(
      `INSERT INTO "Team" ("id", "name", "leadSessionId") VALUES ('team_raw', 'raw', '${lead}')`,
    );
    const row = await api.t.db.$queryRawUnsafe<{ personApproval: unknown }[]>(
      `SELECT "personApproval" FROM "Team" WHERE "id" = 'team_raw'`,
    );
    expect([true, 1, 1n]).toContainEqual(row[0]?.personApproval);
  });
});
