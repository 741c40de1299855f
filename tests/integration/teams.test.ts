import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, settle, testApi, type Api } from "../helpers/api";
import { teamKit } from "../helpers/team-kit";
import { exitWith, ofType, resultOf } from "../helpers/plan-kit";
import { readEvents } from "../../lib/db/session-log/read-events";
import { waitFor } from "../helpers/poll";

let api: Api;
afterEach(async () => {
  await api?.close();
});

const { newTeam, spawn, inbox, awaiting, pendingFrom } = teamKit(() => api);

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
});
