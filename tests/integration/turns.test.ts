import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  results,
  settle,
  testApi,
  trustWorkspaceConfig,
  type Api,
  call,
  startScripted,
  type Step,
} from "../helpers/api";

let api: Api;
afterEach(async () => {
  await api?.close();
});

async function say(id: string, text = "go") {
  const res = await api.call("POST", `/api/sessions/${id}/messages`, { text });
  expect(res.status).toBe(202);
  return res.body.turn as { id: string; queued: boolean };
}

async function pendingPermission(id: string) {
  const res = await api.call("GET", `/api/permissions?status=pending&sessionId=${id}`);
  expect(res.status).toBe(200);
  return res.body.permissions as { id: string; permission: string; patterns: string[]; always: string[] }[];
}

describe("agent turns through the HTTP API (scripted model, real SQLite, real files)", () => {
  it("allow: a read runs, is logged with its result, and the turn ends", async () => {
    api = testApi();
    const id = await startScripted(api, [call("read", { path: "README.md" }), { text: "done" }]);
    await say(id);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    const [r] = results(events);
    expect(r).toMatchObject({ tool: "read", ok: true });
    expect(String(r?.output)).toContain("A todo service.");
    expect(events.at(-1)).toMatchObject({ type: "turn.ended", payload: { reason: "done" } });
    const got = await api.call("GET", `/api/sessions/${id}`);
    expect(got.body.state).toMatchObject({ status: "idle", mode: "default", plan: { active: false, pending: false } });
  });

  it("deny: the plan agent cannot edit, the model is told, the turn goes on and the file is unchanged", async () => {
    api = testApi();
    const id = await startScripted(
      api,
      [call("edit", { path: "src/todo.ts", oldString: "[]", newString: "[1]" }), { text: "ok, I will plan instead" }],
      { agent: "plan" },
    );
    await say(id);
    const { events } = await settle(api, id);
    const [r] = results(events);
    expect(r).toMatchObject({ ok: false });
    expect(r?.error).toMatch(/Permission denied/);
    expect(events.some((e) => e.type === "message.assistant" && e.payload.text === "ok, I will plan instead")).toBe(
      true,
    );
    expect(fs.readFileSync(path.join(api.workspace, "src/todo.ts"), "utf8")).toBe("export const todos = [];\n");
  });

  it("ask → once: an outside read waits durably, runs after the reply, and asks again next time", async () => {
    api = testApi();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-outside-"));
    fs.writeFileSync(path.join(outside, "a.txt"), "outside A");
    fs.writeFileSync(path.join(outside, "b.txt"), "outside B");
    const dir = fs.realpathSync(outside);
    const id = await startScripted(api, [
      call("read", { path: path.join(outside, "a.txt") }),
      call("read", { path: path.join(outside, "b.txt") }),
      { text: "end" },
    ]);
    await say(id);
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = await pendingPermission(id);
    expect(ask).toMatchObject({ permission: "external_directory", patterns: [`${dir}/*`] });
    const r1 = await api.call("POST", `/api/permissions/${ask?.id}/reply`, { reply: "once" });
    expect(r1.status).toBe(200);
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [again] = await pendingPermission(id);
    expect(again?.id).not.toBe(ask?.id);
    expect((await api.call("POST", `/api/permissions/${ask?.id}/reply`, { reply: "once" })).status).toBe(409);
    await api.call("POST", `/api/permissions/${again?.id}/reply`, { reply: "once" });
    const { events, status } = await settle(api, id);
    expect(status).toBe("idle");
    expect(results(events).map((r) => [r.ok, String(r.output ?? "")])).toEqual([
      [true, expect.stringContaining("outside A")],
      [true, expect.stringContaining("outside B")],
    ]);
  });

  it("ask → always: the grant is persisted and covers later calls without asking", async () => {
    api = testApi();
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-outside-")));
    fs.writeFileSync(path.join(outside, "a.txt"), "A");
    fs.writeFileSync(path.join(outside, "b.txt"), "B");
    const id = await startScripted(api, [
      call("read", { path: `${outside}/a.txt` }),
      call("read", { path: `${outside}/b.txt` }),
      { text: "end" },
    ]);
    await say(id);
    await settle(api, id);
    const [ask] = await pendingPermission(id);
    const res = await api.call("POST", `/api/permissions/${ask?.id}/reply`, { reply: "always", scope: "session" });
    expect(res.body.permission).toMatchObject({ status: "always", scope: "session" });
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(results(events).every((r) => r.ok)).toBe(true);
    expect(events.filter((e) => e.type === "permission.asked")).toHaveLength(1);
    const grants = await api.t.db.permissionGrant.findMany();
    expect(grants.map((g) => [g.scope, g.permission, g.pattern])).toEqual([
      ["session", "external_directory", `${outside}/*`],
    ]);
  });

  it("always with workspace scope answers another session's pending ask it now covers", async () => {
    api = testApi();
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-outside-")));
    fs.writeFileSync(path.join(outside, "x.txt"), "X");
    const a = await startScripted(api, [call("read", { path: `${outside}/x.txt` }), { text: "a done" }]);
    const b = await startScripted(api, [call("read", { path: `${outside}/x.txt` }), { text: "b done" }]);
    await say(a);
    await say(b);
    await settle(api, a);
    await settle(api, b);
    const [askA] = await pendingPermission(a);
    await api.call("POST", `/api/permissions/${askA?.id}/reply`, { reply: "always", scope: "workspace" });
    expect((await settle(api, a)).status).toBe("idle");
    const other = await settle(api, b);
    expect(other.status).toBe("idle");
    expect(results(other.events)[0]).toMatchObject({ ok: true });
  });

  it("reject with a message: the model reads it, other pending asks are rejected, and the turn goes on", async () => {
    api = testApi();
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-outside-")));
    fs.writeFileSync(path.join(outside, "x.txt"), "X");
    const id = await startScripted(api, [call("read", { path: `${outside}/x.txt` }), { text: "understood" }]);
    await say(id);
    await settle(api, id);
    const [ask] = await pendingPermission(id);
    await api.call("POST", `/api/permissions/${ask?.id}/reply`, {
      reply: "reject",
      message: "stay inside the project",
    });
    const { events, status } = await settle(api, id);
    expect(status).toBe("idle");
    expect(results(events)[0]?.error).toContain("stay inside the project");
    expect(events.some((e) => e.type === "message.assistant" && e.payload.text === "understood")).toBe(true);
  });

  it("doom_loop: the same call with identical input a third time asks", async () => {
    api = testApi();
    const read = call("read", { path: "README.md" });
    const id = await startScripted(api, [read, read, read, { text: "end" }]);
    await say(id);
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = await pendingPermission(id);
    expect(ask).toMatchObject({ permission: "doom_loop", patterns: ["read"] });
    expect(results((await settle(api, id)).events)).toHaveLength(2);
  });

  it("question: the tool waits for the answer given through the reviews API", async () => {
    api = testApi();
    const id = await startScripted(api, [
      call("question", {
        questions: [{ question: "Which store?", options: [{ label: "SQLite" }, { label: "Postgres" }] }],
      }),
      { text: "thanks" },
    ]);
    await say(id);
    expect((await settle(api, id)).status).toBe("awaiting_review");
    const list = await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`);
    const rev = list.body.reviews[0];
    expect(rev).toMatchObject({ kind: "question", status: "pending" });
    expect((await api.call("POST", `/api/reviews/${rev.id}/decision`, { answers: [["Postgres"]] })).status).toBe(200);
    expect((await api.call("POST", `/api/reviews/${rev.id}/decision`, { answers: [["SQLite"]] })).status).toBe(409);
    const { events } = await settle(api, id);
    expect(String(results(events)[0]?.output)).toContain("Postgres");
  });

  it("subagents inherit the parent's denies and cannot start subagents", async () => {
    const config = { agents: { careful: { permission: { bash: { "*": "allow", "rm *": "deny" } } } } };
    api = testApi({
      files: { "README.md": "# r\n", "keep.txt": "keep", ".plangate/config.json": JSON.stringify(config) },
    });
    // A custom agent exists once a person trusted the config that defines it.
    await trustWorkspaceConfig(api, api.workspace);
    const child: Step[] = [
      call("bash", { command: "rm keep.txt" }),
      call("task", { agent: "general", prompt: "nested" }),
      { text: "child summary" },
    ];
    const id = await startScripted(
      api,
      [call("task", { agent: "general", prompt: "clean up", script: child }), { text: "parent done" }],
      { agent: "careful" },
    );
    await say(id);
    const { events, status } = await settle(api, id);
    expect(status).toBe("idle");
    expect(results(events)[0]).toMatchObject({ tool: "task", ok: true, output: "child summary" });
    expect(fs.existsSync(path.join(api.workspace, "keep.txt"))).toBe(true);
    const kids = await api.t.db.session.findMany({ where: { parentId: id } });
    expect(kids).toHaveLength(1);
    const childEvents = (await api.call("GET", `/api/sessions/${kids[0]?.id}/events`)).body.events as {
      type: string;
      payload: { ok?: boolean; error?: string };
    }[];
    const childResults = childEvents.filter((e) => e.type === "tool.result").map((e) => e.payload);
    expect(childResults[0]?.error).toMatch(/Permission denied/);
    expect(childResults[1]?.ok).toBe(false);
  });
});
