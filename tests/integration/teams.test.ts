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

describe("teams: teammates' plans go to the lead's mailbox", () => {
  it("two teammates submit plans; the lead rejects one with feedback and approves the other; the rejected one resubmits, is approved, and both execute", async () => {
    api = testApi();
    // The lead's model reads its mail as it comes: an owner (the operator) let it answer.
    const { lead, teamId } = await newTeam(
      [{ text: "reading my mail" }, { text: "still reading" }, { text: "and more" }],
      "default",
      { personApproval: false },
    );
    const alice = await spawn(teamId, "alice", [
      exitWith("# Alice v1\n\n1. add a field\n"),
      exitWith("# Alice v2\n\n1. add a field\n2. add a test\n"),
      call("write", { path: "alice.txt", content: "alice\n" }),
      { text: "alice done" },
    ]);
    const bob = await spawn(teamId, "bob", [
      exitWith("# Bob v1\n\n1. docs\n"),
      call("write", { path: "bob.txt", content: "bob\n" }),
      { text: "bob done" },
    ]);
    await awaiting(alice);
    await awaiting(bob);

    // The browser review route cannot decide a teammate's plan: only the lead, through the mailbox.
    const aliceState = (await api.call("GET", `/api/sessions/${alice}`)).body;
    expect(aliceState.team).toMatchObject({
      id: teamId,
      role: "teammate",
      name: "alice",
      leadSessionId: lead,
      requirePlanApproval: true,
    });
    expect(
      (await api.call("POST", `/api/reviews/${aliceState.state.pendingReview.id}/decision`, { decision: "approve" }))
        .status,
    ).toBe(403);

    const pending = await inbox(teamId, "?status=pending");
    expect(pending.map((m) => [m.type, m.from, m.payload.version])).toEqual(
      expect.arrayContaining([
        ["plan_approval_request", alice, 1],
        ["plan_approval_request", bob, 1],
      ]),
    );
    expect(pending).toHaveLength(2);
    const a1 = pending.find((m) => m.from === alice)!;
    expect(a1.payload).toMatchObject({
      from: "alice",
      requestId: a1.requestId,
      planContent: "# Alice v1\n\n1. add a field\n",
      version: 1,
    });
    expect(String(a1.payload.planFilePath)).toContain(path.join(".plangate", "plans"));

    expect(
      (
        await api.call("POST", `/api/teams/${teamId}/mailbox/${a1.id}/reply`, {
          approve: false,
          feedback: "Add a test step.",
        })
      ).status,
    ).toBe(200);
    const b1 = pending.find((m) => m.from === bob)!;
    expect((await api.call("POST", `/api/teams/${teamId}/mailbox/${b1.id}/reply`, { approve: true })).status).toBe(200);

    // Alice revises and asks again: a new request (version 2).
    const a2 = await waitFor("alice's second request", async () => {
      const m = await pendingFrom(teamId, alice);
      return m && m.id !== a1.id ? m : undefined;
    });
    expect(a2.payload.version).toBe(2);
    const aliceEvents = await readEvents(api.t.db, alice);
    expect(resultOf(aliceEvents, "exit_plan_mode").error).toContain("Add a test step.");
    expect((await api.call("POST", `/api/teams/${teamId}/mailbox/${a2.id}/reply`, { approve: true })).status).toBe(200);

    for (const [id, file] of [
      [alice, "alice.txt"],
      [bob, "bob.txt"],
    ] as const) {
      const { status, events } = await settle(api, id);
      expect(status).toBe("idle");
      expect(fs.readFileSync(path.join(api.workspace, file), "utf8")).toBe(`${file.replace(".txt", "")}\n`);
      expect(ofType(events, "mode.changed").at(-1)).toMatchObject({ from: "plan", to: "acceptEdits" });
      expect(String(resultOf(events, "exit_plan_mode", id === alice ? 1 : 0).output)).toContain(
        "A person has approved your plan in the team mailbox",
      );
    }

    // The mailbox keeps everything, in order: three requests, three responses.
    const all = (await inbox(teamId)).concat(await inbox(teamId, `?to=${alice}`), await inbox(teamId, `?to=${bob}`));
    expect(all.filter((m) => m.type === "plan_approval_request").every((m) => m.status === "answered")).toBe(true);
    const name = (id: string) => (id === alice ? "alice" : id === bob ? "bob" : id);
    expect(
      all
        .filter((m) => m.type === "plan_approval_response")
        .map((m) => `${name(m.to)}:${String(m.payload.approve)}`)
        .sort(),
    ).toEqual(["alice:false", "alice:true", "bob:true"]);
    // The lead's model read the requests at its next steps.
    const leadEvents = await settle(api, lead);
    expect(
      ofType(leadEvents.events, "message.user")
        .filter((m) => m.source === "team")
        .map((m) => m.text)
        .join("\n"),
    ).toContain("plan_approval_request from alice");
    // Both finished; their plans named no file they wrote, so the checks (run once each turn has ended) fail:
    // the mailbox says so, not "done".
    const statuses = async () =>
      (await api.call("GET", `/api/teams/${teamId}`)).body.team.teammates.map(
        (t: { name: string; teamStatus: string }) => [t.name, t.teamStatus],
      );
    await expect.poll(statuses, { timeout: 20_000 }).toEqual([
      ["alice", "verification_failed"],
      ["bob", "verification_failed"],
    ]);
  });

  it("only the teammate's own lead can answer: the teammate, another teammate, another team's lead and stale requests are refused and change nothing", async () => {
    api = testApi();
    const { lead, teamId } = await newTeam();
    const alice = await spawn(teamId, "alice", [exitWith("# Alice\n\n1. work\n"), { text: "alice done" }]);
    const carol = await spawn(teamId, "carol", [{ text: "carol idle" }], false);
    const other = await newTeam();
    await awaiting(alice);
    const request = (await pendingFrom(teamId, alice))!;
    // The lead was woken to read its mail (its drive marks the request read): let it finish before the "before".
    await settle(api, lead);
    const snapshot = async () => ({
      mail: (await api.t.db.mailboxMessage.findMany({ orderBy: [{ teamId: "asc" }, { seq: "asc" }] })).map((m) => [
        m.id,
        m.status,
      ]),
      events: await api.t.db.sessionEvent.count({ where: { sessionId: alice } }),
      review: (await api.t.db.review.findFirst({ where: { id: request.requestId! } }))?.status,
    });
    const before = await snapshot();
    const reply = (url: string, body: unknown) => api.call("POST", url, body);
    const cases: [string, string, unknown, number, RegExp][] = [
      [
        "the teammate itself",
        `/api/teams/${teamId}/mailbox/${request.id}/reply`,
        { approve: true, from: alice },
        403,
        /own team lead/,
      ],
      [
        "another teammate",
        `/api/teams/${teamId}/mailbox/${request.id}/reply`,
        { approve: true, from: carol },
        403,
        /own team lead/,
      ],
      [
        "another team's lead, as that lead",
        `/api/teams/${teamId}/mailbox/${request.id}/reply`,
        { approve: true, from: other.lead },
        403,
        /own team lead/,
      ],
      [
        "another team's lead, through its own team",
        `/api/teams/${other.teamId}/mailbox/${request.id}/reply`,
        { approve: true },
        404,
        /no such plan approval request/,
      ],
      [
        "a message that does not exist",
        `/api/teams/${teamId}/mailbox/msg_nope/reply`,
        { approve: true },
        404,
        /no such plan approval request/,
      ],
      ["a bad body", `/api/teams/${teamId}/mailbox/${request.id}/reply`, { approve: "yes" }, 400, /approve/],
    ];
    for (const [name, url, body, status, message] of cases) {
      const res = await reply(url, body);
      expect([name, res.status, res.body.error?.message]).toEqual([name, status, expect.stringMatching(message)]);
    }
    expect(await snapshot()).toEqual(before);

    // The first answer wins: the lead rejects, a later approval of the same request is stale (409).
    const [first, second] = await Promise.all([
      reply(`/api/teams/${teamId}/mailbox/${request.id}/reply`, { approve: false, feedback: "not yet" }),
      reply(`/api/teams/${teamId}/mailbox/${request.id}/reply`, { approve: true }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const again = await reply(`/api/teams/${teamId}/mailbox/${request.id}/reply`, { approve: true, from: lead });
    expect(again.status).toBe(409);
    const events = await readEvents(api.t.db, alice);
    const decided = ofType(events, "review.answered");
    expect(decided).toHaveLength(1);
    expect(decided[0]?.decision).toBe(first.status === 200 ? "reject" : "approve");
  });

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
