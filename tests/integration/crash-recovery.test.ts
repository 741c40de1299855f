import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "../../lib/db/migrate";
import { freshDatabaseUrl } from "../helpers/db";
import { freePort, http, startServer, type Server } from "../helpers/server";
import { until } from "../helpers/poll";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-crash-"));
const workspace = path.join(root, "ws");
fs.mkdirSync(path.join(workspace, ".plangate"), { recursive: true });
fs.writeFileSync(
  path.join(workspace, ".plangate/config.json"),
  JSON.stringify({ permission: { bash: { "*": "ask" } } }),
);
const env = {
  DATABASE_URL: freshDatabaseUrl(root).url,
  PLANGATE_DATA_DIR: root,
  PLANGATE_WORKSPACE_ROOTS: root,
  PLANGATE_ALLOW_SCRIPTED: "1",
};
let server: Server | undefined;

afterAll(async () => {
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("durable asks survive kill -9", () => {
  it("keeps the ask pending across a crash and resumes the turn exactly once on one reply", async () => {
    await migrateDatabase(env.DATABASE_URL, { quiet: true });
    const port = await freePort();
    server = await startServer(env, port);
    const script = [
      { toolCalls: [{ name: "bash", input: { command: "echo ran >> count.txt" } }] },
      { text: "finished" },
    ];
    const created = await http(`${server.url}/api/sessions`, "POST", { workspace, model: "scripted", script });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.session.id as string;
    expect((await http(`${server.url}/api/sessions/${id}/messages`, "POST", { text: "count" })).status).toBe(202);
    await until(
      () => http(`${server!.url}/api/sessions/${id}`, "GET"),
      (r) => r.body.state.status === "awaiting_permission",
    );
    // A plan review pending at the same time: a crash must never count as an approval.
    const planScript = [
      { toolCalls: [{ name: "exit_plan_mode", input: { plan: "# Plan\n\n1. count\n" } }] },
      { text: "executing" },
    ];
    const planned = await http(`${server.url}/api/sessions`, "POST", {
      workspace,
      model: "scripted",
      script: planScript,
      mode: "plan",
    });
    const planId = planned.body.session.id as string;
    await http(`${server.url}/api/sessions/${planId}/messages`, "POST", { text: "plan" });
    await until(
      () => http(`${server!.url}/api/sessions/${planId}`, "GET"),
      (r) => r.body.state.status === "awaiting_review",
    );

    // A team: alice's plan waits in the lead's mailbox, and a note to alice waits for her next step.
    const lead = (await http(`${server.url}/api/sessions`, "POST", { workspace, model: "scripted", script: [] })).body
      .session.id as string;
    const teamId = (await http(`${server.url}/api/teams`, "POST", { sessionId: lead })).body.team.id as string;
    const teammate = await http(`${server.url}/api/teams/${teamId}/teammates`, "POST", {
      name: "alice",
      task: "plan it",
      script: [
        { toolCalls: [{ name: "exit_plan_mode", input: { plan: "# Alice\n\n1. work\n" } }] },
        { text: "alice executing" },
      ],
    });
    expect(teammate.status, JSON.stringify(teammate.body)).toBe(201);
    const alice = teammate.body.sessionId as string;
    await until(
      () => http(`${server!.url}/api/sessions/${alice}`, "GET"),
      (r) => r.body.state.status === "awaiting_review",
    );
    expect(
      (await http(`${server.url}/api/teams/${teamId}/mailbox`, "POST", { to: "alice", text: "note before the crash" }))
        .status,
    ).toBe(201);
    const requestBefore = (await http(`${server.url}/api/teams/${teamId}/mailbox?status=pending`, "GET")).body
      .messages as { id: string }[];
    expect(requestBefore).toHaveLength(1);

    await server.kill9();
    server = await startServer(env, port);

    const requestAfter = (await http(`${server.url}/api/teams/${teamId}/mailbox?status=pending`, "GET")).body
      .messages as { id: string }[];
    expect(requestAfter).toEqual(requestBefore);
    expect(
      (
        (await http(`${server.url}/api/teams/${teamId}/mailbox?to=${alice}`, "GET")).body.messages as {
          status: string;
        }[]
      ).map((m) => m.status),
    ).toEqual(["unread"]);
    expect(
      (await http(`${server.url}/api/teams/${teamId}/mailbox/${requestAfter[0]?.id}/reply`, "POST", { approve: true }))
        .status,
    ).toBe(200);
    await until(
      () => http(`${server!.url}/api/sessions/${alice}`, "GET"),
      (r) => r.body.state.status === "idle",
    );
    const aliceEvents = (await http(`${server.url}/api/sessions/${alice}/events`, "GET")).body.events as {
      type: string;
      payload: { text?: string; source?: string };
    }[];
    expect(
      aliceEvents.filter((e) => e.type === "message.user" && e.payload.source === "team").map((e) => e.payload.text),
    ).toEqual(["[Team mailbox]\n\nmessage from lead: note before the crash"]);

    const after = await http(`${server.url}/api/sessions/${id}`, "GET");
    expect(after.body.state.status).toBe("awaiting_permission");
    const pending = await http(`${server.url}/api/permissions?status=pending&sessionId=${id}`, "GET");
    expect(pending.body.permissions).toHaveLength(1);
    const ask = pending.body.permissions[0];
    expect(ask.patterns).toEqual(["echo ran >>count.txt"]);
    expect(fs.existsSync(path.join(workspace, "count.txt"))).toBe(false);

    const replies = await Promise.all(
      [1, 2, 3].map(() => http(`${server!.url}/api/permissions/${ask.id}/reply`, "POST", { reply: "once" })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409]);

    const done = await until(
      () => http(`${server!.url}/api/sessions/${id}`, "GET"),
      (r) => r.body.state.status === "idle",
    );
    expect(done.body.state.status).toBe("idle");
    expect(fs.readFileSync(path.join(workspace, "count.txt"), "utf8")).toBe("ran\n");
    const events = (await http(`${server.url}/api/sessions/${id}/events`, "GET")).body.events as { type: string }[];
    expect(events.filter((e) => e.type === "tool.result")).toHaveLength(1);
    expect(events.filter((e) => e.type === "turn.ended")).toHaveLength(1);

    const review = (await http(`${server.url}/api/reviews?status=pending&sessionId=${planId}`, "GET")).body.reviews[0];
    expect(review).toMatchObject({ kind: "plan-review", status: "pending" });
    expect((await http(`${server.url}/api/sessions/${planId}`, "GET")).body.state).toMatchObject({
      status: "awaiting_review",
      mode: "plan",
    });
    expect(
      (await http(`${server.url}/api/reviews/${review.id}/decision`, "POST", { decision: "approve" })).status,
    ).toBe(200);
    const executed = await until(
      () => http(`${server!.url}/api/sessions/${planId}`, "GET"),
      (r) => r.body.state.status === "idle",
    );
    expect(executed.body.state.mode).toBe("default");
  }, 400_000);
});
