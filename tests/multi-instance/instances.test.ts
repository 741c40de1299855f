import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMigrations } from "../../lib/db/migrate";
import { http, type Server } from "../helpers/server";
import {
  bash,
  eventsOf,
  exitPlan,
  lines,
  ofType,
  race,
  say,
  scripted,
  startCluster,
  stateOf,
  waitStatus,
  type Cluster,
} from "../helpers/instances";
import { until } from "../helpers/poll";

// Three `npm start` processes on one PostgreSQL database, started at the same moment on an empty database.
// Every exactly-once guarantee is attacked with 20 concurrent answers spread over the three instances.
let c: Cluster;
const ALLOW_BASH = { permission: { bash: { "*": "allow" } } };
const ASK_BASH = { permission: { bash: { "*": "ask" } } };

beforeAll(async () => {
  c = await startCluster("once");
}, 300_000);

afterAll(async () => {
  await c?.stop();
}, 60_000);

/** Exactly one 200, and every other answer a 409 already_decided (never a 500 or a second winner). */
function oneWinner(answers: { i: number; status: number; body: any }[]) {
  const odd = answers.filter((a) => a.status !== 200 && a.status !== 409);
  expect(odd, JSON.stringify(odd)).toEqual([]);
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  expect(answers.filter((a) => a.status === 409)).toHaveLength(answers.length - 1);
  for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe("already_decided");
  return answers.find((a) => a.status === 200)!;
}

/**
 * The session's log once its last expected event is in (after an approved plan's work that is its verification,
 * which comes after the session went idle; otherwise the turn's end), and then nothing else happens to it for a
 * while (no second continuation on another instance).
 */
async function settledLog(base: string, id: string, approved: boolean) {
  const last = approved ? "verification.completed" : "turn.ended";
  const events = await until(
    () => eventsOf(base, id),
    (e) => e.some((x) => x.type === last),
  );
  await new Promise((r) => setTimeout(r, 1500));
  expect((await eventsOf(base, id)).length).toBe(events.length);
  return events;
}

describe("three instances started together on an empty PostgreSQL", () => {
  it("migrated it exactly once: every migration has one _prisma_migrations row", async () => {
    expect(c.servers).toHaveLength(3);
    const rows = await c.query<{ migration_name: string; n: string; finished: string }>(
      'SELECT "migration_name", count(*) AS n, count("finished_at") AS finished FROM "_prisma_migrations" GROUP BY "migration_name" ORDER BY "migration_name"',
    );
    const expected = postgresMigrations().map((m) => m.name);
    expect(expected.length).toBeGreaterThan(0);
    expect(rows).toEqual(expected.map((name) => ({ migration_name: name, n: "1", finished: "1" })));
    for (const s of c.servers) expect((await http(`${s.url}/api/health`, "GET")).body).toMatchObject({ ok: true });
  });
});

describe("exactly-once across instances", () => {
  it("20 concurrent plan decisions over three instances: one 200, nineteen 409, one review.answered, the turn continues once", async () => {
    const ws = await c.workspace("review", ALLOW_BASH);
    const [a, b, cc] = c.servers as [Server, Server, Server];
    const id = await scripted(
      a.url,
      ws,
      [exitPlan("# Plan\n\n1. append to out.txt\n"), bash("echo approved >> out.txt"), { text: "review done" }],
      { mode: "plan" },
    );
    await say(a.url, id, "plan it");
    await waitStatus(c, a.url, id, "awaiting_review");
    const review = (await http(`${a.url}/api/reviews?status=pending&sessionId=${id}`, "GET")).body.reviews[0] as {
      id: string;
    };

    const answers = await race(
      c.servers,
      20,
      () => `/api/reviews/${review.id}/decision`,
      (i) => (i % 2 === 0 ? { decision: "approve" } : { decision: "reject", feedback: `no ${i}` }),
    );
    const winner = oneWinner(answers);
    const approved = winner.i % 2 === 0;
    for (const s of c.servers)
      expect((await http(`${s.url}/api/reviews/${review.id}`, "GET")).body.review).toMatchObject({
        status: approved ? "approved" : "rejected",
      });

    await waitStatus(c, cc.url, id, "idle");
    const events = await settledLog(b.url, id, approved);
    const answered = ofType(events, "review.answered");
    expect(answered).toHaveLength(1);
    expect(answered[0]!.payload.decision).toBe(approved ? "approve" : "reject");
    // The continuation ran once: one result for the plan, one model step after it, one bash result, one end.
    expect(ofType(events, "tool.result").filter((e) => e.payload.tool === "exit_plan_mode")).toHaveLength(1);
    expect(ofType(events, "message.assistant").map((e) => e.payload.step)).toEqual([0, 1, 2]);
    expect(ofType(events, "tool.result").filter((e) => e.payload.tool === "bash")).toHaveLength(1);
    expect(ofType(events, "turn.ended")).toHaveLength(1);
    // Approved: the write after the approval ran exactly once. Rejected: still in plan mode, nothing written.
    expect(lines(path.join(ws, "out.txt"))).toEqual(approved ? ["approved"] : []);
    expect((await stateOf(a.url, id)).mode).toBe(approved ? "default" : "plan");
  }, 60_000);

  it("20 concurrent permission replies over three instances: one 200, nineteen 409, the command runs once", async () => {
    const ws = await c.workspace("permission", ASK_BASH);
    const [a, b, cc] = c.servers as [Server, Server, Server];
    const id = await scripted(b.url, ws, [bash("echo ran >> count.txt"), { text: "finished" }]);
    await say(b.url, id, "count");
    await waitStatus(c, b.url, id, "awaiting_permission");
    const asks = (await http(`${b.url}/api/permissions?status=pending&sessionId=${id}`, "GET")).body.permissions as {
      id: string;
    }[];
    expect(asks).toHaveLength(1);
    expect(lines(path.join(ws, "count.txt"))).toEqual([]);

    oneWinner(
      await race(
        c.servers,
        20,
        () => `/api/permissions/${asks[0]!.id}/reply`,
        () => ({ reply: "once" }),
      ),
    );

    await waitStatus(c, a.url, id, "idle");
    const events = await settledLog(cc.url, id, false);
    expect(lines(path.join(ws, "count.txt"))).toEqual(["ran"]);
    expect(ofType(events, "permission.replied")).toHaveLength(1);
    expect(ofType(events, "tool.started")).toHaveLength(1);
    expect(ofType(events, "tool.result")).toHaveLength(1);
    expect(ofType(events, "tool.result")[0]!.payload.ok).toBe(true);
    expect(ofType(events, "message.assistant").map((e) => e.payload.step)).toEqual([0, 1]);
    expect(ofType(events, "turn.ended")).toHaveLength(1);
  }, 60_000);

  it("20 concurrent mailbox replies over three instances: one 200, nineteen 409, the teammate goes on once", async () => {
    const ws = await c.workspace("team", ALLOW_BASH);
    const [a, b, cc] = c.servers as [Server, Server, Server];
    const lead = await scripted(cc.url, ws, []);
    const team = await http(`${cc.url}/api/teams`, "POST", { sessionId: lead });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.team.id as string;
    const script = [
      exitPlan("# Alice\n\n1. append to team.txt\n"),
      bash("echo alice >> team.txt"),
      { text: "alice done" },
    ];
    const mate = await http(`${cc.url}/api/teams/${teamId}/teammates`, "POST", {
      name: "alice",
      task: "plan it",
      script,
    });
    expect(mate.status, JSON.stringify(mate.body)).toBe(201);
    const alice = mate.body.sessionId as string;
    await waitStatus(c, cc.url, alice, "awaiting_review");
    const pending = await until(
      async () =>
        (await http(`${cc.url}/api/teams/${teamId}/mailbox?status=pending`, "GET")).body.messages as {
          id: string;
          type: string;
        }[],
      (m) => m.length === 1,
    );
    expect(pending[0]!.type).toBe("plan_approval_request");

    const answers = await race(
      c.servers,
      20,
      () => `/api/teams/${teamId}/mailbox/${pending[0]!.id}/reply`,
      (i) => (i % 2 === 0 ? { approve: true } : { approve: false, feedback: `no ${i}` }),
    );
    const approved = oneWinner(answers).i % 2 === 0;

    await waitStatus(c, a.url, alice, "idle");
    const events = await settledLog(b.url, alice, approved);
    const answered = ofType(events, "review.answered");
    expect(answered).toHaveLength(1);
    expect(answered[0]!.payload.decision).toBe(approved ? "approve" : "reject");
    expect(ofType(events, "message.assistant").map((e) => e.payload.step)).toEqual([0, 1, 2]);
    expect(ofType(events, "tool.result").filter((e) => e.payload.tool === "bash")).toHaveLength(1);
    expect(lines(path.join(ws, "team.txt"))).toEqual(approved ? ["alice"] : []);
    // The mailbox holds the request, answered, and exactly one response to it.
    const all = (await http(`${cc.url}/api/teams/${teamId}/mailbox`, "GET")).body.messages as {
      id: string;
      type: string;
      status: string;
    }[];
    expect(all.find((m) => m.id === pending[0]!.id)?.status).toBe("answered");
    const responses = await c.query<{ n: string }>(
      `SELECT count(*) AS n FROM "MailboxMessage" WHERE "teamId" = $1 AND "type" = 'plan_approval_response'`,
      [teamId],
    );
    expect(responses[0]!.n).toBe("1");
  }, 60_000);
});
