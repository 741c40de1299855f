// Teams (see teams.test.ts for plans through the lead's mailbox): the lead agent's send_message and
// spawn_teammate, who may use them, and team requests refused where they make no sense.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { teamKit } from "../helpers/team-kit";
import { exitWith, ofType, resultOf } from "../helpers/plan-kit";
import { readEvents } from "../../lib/db/session-log/read-events";
import { waitFor } from "../helpers/poll";

let api: Api;
afterEach(async () => {
  await api?.close();
});

const { newTeam, spawn, inbox, statusOf, awaiting, pendingFrom } = teamKit(() => api);

describe("teams: the lead's messages and spawns, and requests that make no sense", () => {
  it("the lead agent answers with send_message; another teammate's send_message answer is refused; plain messages arrive in order", async () => {
    api = testApi();
    // A lead whose own edits are accepted may let its teammate's be accepted too.
    const { lead, teamId } = await newTeam(
      [
        call("send_message", { type: "plan_approval_response", to: "alice", approve: true }),
        call("send_message", { type: "message", to: "alice", text: "thanks, go ahead" }),
        { text: "lead done" },
      ],
      "acceptEdits",
      { personApproval: false },
    );
    const alice = await spawn(teamId, "alice", [
      exitWith("# Alice\n\n1. work\n"),
      call("write", { path: "a.txt", content: "a\n" }),
      { text: "alice wrote a.txt" },
    ]);
    // Alice's request wakes the idle lead, whose model answers it (so alice may never be seen waiting).
    const { status, events } = await waitFor("the lead's answers", async () => {
      const s = await settle(api, lead);
      return s.status === "idle" && ofType(s.events, "tool.result").length === 2 ? s : undefined;
    });
    expect(status).toBe("idle");
    expect(ofType(events, "message.user").find((m) => m.source === "team")?.text).toContain(
      "plan_approval_request from alice",
    );
    expect(ofType(events, "tool.result").map((r) => [r.tool, r.ok])).toEqual([
      ["send_message", true],
      ["send_message", true],
    ]);
    const done = await waitFor("alice idle", async () => {
      const s = await settle(api, alice);
      return s.status === "idle" && ofType(s.events, "message.assistant").some((m) => m.text === "alice wrote a.txt")
        ? s
        : undefined;
    });
    expect(fs.readFileSync(path.join(api.workspace, "a.txt"), "utf8")).toBe("a\n");
    // The lead's note is read by alice's model at a step boundary (during this turn or a turn it opens), once.
    const notes = await waitFor("the note delivered", async () => {
      const m = ofType(await readEvents(api.t.db, alice), "message.user").filter((u) => u.source === "team");
      return m.length > 0 ? m : undefined;
    });
    expect(notes.map((m) => m.text)).toEqual(["[Team mailbox]\n\nmessage from lead: thanks, go ahead"]);
    expect((await inbox(teamId, `?to=${alice}`)).map((m) => [m.type, m.status])).toEqual([
      ["plan_approval_response", "read"],
      ["message", "read"],
    ]);

    // A teammate cannot answer another teammate's plan, even with the right request id.
    const bob = await spawn(teamId, "bob", [exitWith("# Bob\n\n1. work\n")]);
    await awaiting(bob);
    const request = (await pendingFrom(teamId, bob))!;
    const mallory = await spawn(
      teamId,
      "mallory",
      [
        call("send_message", {
          type: "plan_approval_response",
          to: "bob",
          requestId: request.requestId,
          approve: true,
        }),
        { text: "tried" },
      ],
      false,
    );
    const tried = await waitFor("mallory idle", async () => {
      const s = await settle(api, mallory);
      return s.status === "idle" && ofType(s.events, "tool.result").length > 0 ? s : undefined;
    });
    expect(resultOf(tried.events, "send_message")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only the teammate's own team lead"),
    });
    expect((await pendingFrom(teamId, bob))?.id).toBe(request.id);
    expect(await statusOf(bob)).toBe("awaiting_review");
  });

  it("the lead's model spawns teammates with spawn_teammate; only a lead may, and not an unapproved worker while planning", async () => {
    api = testApi();
    const daveScript = [exitWith("# Dave\n\n1. look\n")];
    const { lead, teamId } = await newTeam([
      call("spawn_teammate", { name: "dave", task: "look around", requirePlanApproval: true, script: daveScript }),
      { text: "spawned" },
    ]);
    await api.call("POST", `/api/sessions/${lead}/messages`, { text: "start the team" });
    const spawned = await waitFor("dave spawned", async () => {
      const s = await settle(api, lead);
      return ofType(s.events, "tool.result").length === 1 ? s : undefined;
    });
    expect(resultOf(spawned.events, "spawn_teammate")).toMatchObject({
      ok: true,
      output: expect.stringContaining("Teammate dave started"),
    });
    const leadView = (await api.call("GET", `/api/sessions/${lead}`)).body;
    expect(leadView.session).toMatchObject({ teamId, role: "lead" });
    expect(leadView.team.teammates.map((t: { name: string }) => t.name)).toEqual(["dave"]);
    const dave = leadView.team.teammates[0].sessionId as string;
    const daveView = (await api.call("GET", `/api/sessions/${dave}`)).body;
    expect(daveView.session).toMatchObject({ teamId, role: "teammate", workspace: api.workspace });
    await waitFor("dave's request", () => pendingFrom(teamId, dave));
    const daveEvents = await readEvents(api.t.db, dave);
    expect(ofType(daveEvents, "notice").map((n) => n.text)).toEqual([
      expect.stringMatching(/^Plan version 1 submitted to the team lead for approval/),
    ]);
    expect(ofType(daveEvents, "message.user")[0]?.text).toBe("look around");

    // A teammate is not a lead; a lead in plan mode may not start a worker that skips plan approval.
    const erin = await spawn(
      teamId,
      "erin",
      [call("spawn_teammate", { name: "frank", task: "x", requirePlanApproval: true }), { text: "tried" }],
      false,
    );
    const tried = await waitFor("erin tried", async () => {
      const s = await settle(api, erin);
      return ofType(s.events, "tool.result").length === 1 ? s : undefined;
    });
    expect(resultOf(tried.events, "spawn_teammate")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only a team lead"),
    });
    const planner = await startScripted(
      api,
      [call("spawn_teammate", { name: "gina", task: "x", requirePlanApproval: false }), { text: "tried" }],
      { mode: "plan" },
    );
    await api.call("POST", "/api/teams", { sessionId: planner });
    await api.call("POST", `/api/sessions/${planner}/messages`, { text: "go" });
    const denied = await settle(api, planner);
    expect(resultOf(denied.events, "spawn_teammate")).toMatchObject({
      ok: false,
      error: expect.stringContaining("plan mode"),
    });
    expect(
      (await api.t.db.session.findMany({ select: { title: true } }))
        .map((s) => s.title)
        .filter((t) => /^(frank|gina) /.test(t)),
    ).toEqual([]);
  });

  it("team requests are refused where they make no sense", async () => {
    api = testApi();
    const { teamId } = await newTeam();
    const cases: [string, string, unknown, number, RegExp][] = [
      ["a team for a missing session", "/api/teams", { sessionId: "ses_nope" }, 404, /No session/],
      [
        "a second team for the same lead",
        "/api/teams",
        { sessionId: (await api.call("GET", `/api/teams/${teamId}`)).body.team.leadSessionId },
        409,
        /already in team/,
      ],
      ["a teammate with a bad name", `/api/teams/${teamId}/teammates`, { name: "Bad Name", task: "x" }, 400, /name/],
      [
        "a teammate called lead",
        `/api/teams/${teamId}/teammates`,
        { name: "lead", task: "x", script: [] },
        409,
        /already has a member called lead/,
      ],
      ["a missing team", "/api/teams/team_nope", undefined, 404, /No team/],
    ];
    for (const [name, url, body, status, message] of cases) {
      const res = await api.call(body === undefined ? "GET" : "POST", url, body);
      expect([name, res.status, res.body.error?.message]).toEqual([name, status, expect.stringMatching(message)]);
    }
    expect(await api.t.db.team.count()).toBe(1);
    expect(await api.t.db.session.count()).toBe(1);
  });
});
