import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { buildMessages } from "../../lib/agent/build-messages";
import { recoverInterrupted } from "../../lib/agent/recover-interrupted";
import { appendEvents } from "../../lib/session/append-events";
import { readEvents } from "../../lib/db/session-log/read-events";
import { getSession } from "../../lib/session/get-session";
import { resetEnvCache } from "../../lib/env";
import { results, settle, testApi, type Api, call, startScripted, type Step } from "../helpers/api";
import * as stream from "../../app/api/sessions/[id]/stream/route";
import { operatorHeaders } from "../helpers/server";
import { waitFor } from "../helpers/poll";

let api: Api;
afterEach(async () => {
  await api?.close();
});

describe("turn lifecycle", () => {
  it("a message sent while a turn runs is queued and delivered at the next step boundary", async () => {
    api = testApi();
    const id = await startScripted(api, [call("bash", { command: "sleep 1" }), { text: "saw it" }]);
    const first = await api.call("POST", `/api/sessions/${id}/messages`, { text: "start" });
    await waitFor("the tool call in the log", async () =>
      (await readEvents(api.t.db, id)).some((e) => e.type === "tool.called"),
    );
    const second = await api.call("POST", `/api/sessions/${id}/messages`, { text: "also check the tests" });
    expect(second.body.turn).toEqual({ id: first.body.turn.id, queued: true });
    const { events } = await settle(api, id);
    expect(events.filter((e) => e.type === "turn.started")).toHaveLength(1);
    const { messages } = buildMessages(events);
    const roles = messages.map((m) => m.role);
    const toolAt = roles.indexOf("tool");
    const queuedAt = messages.findIndex(
      (m) => m.role === "user" && JSON.stringify(m.content).includes("also check the tests"),
    );
    expect(queuedAt).toBeGreaterThan(toolAt);
  });

  it("abort stops a running command and ends the turn; the command's interruption is logged (it had started)", async () => {
    api = testApi();
    const id = await startScripted(api, [call("bash", { command: "sleep 20" }), { text: "never" }]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    await waitFor("the tool start in the log", async () =>
      (await readEvents(api.t.db, id)).some((e) => e.type === "tool.started"),
    );
    const t0 = Date.now();
    const res = await api.call("POST", `/api/sessions/${id}/abort`);
    expect(res.body).toEqual({ aborted: true });
    const { status, events } = await settle(api, id);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(status).toBe("idle");
    const ended = events.findIndex((e) => e.type === "turn.ended" && e.payload.reason === "aborted");
    expect(ended).toBeGreaterThan(0);
    // The command had started (tool.started is in the turn): its killed result follows the turn's end.
    expect(events.findIndex((e) => e.type === "tool.started")).toBeLessThan(ended);
    const [result] = results(events);
    expect(events.findIndex((e) => e.type === "tool.result")).toBeGreaterThan(ended);
    expect(result?.output).toContain("aborted; the command was killed");
    expect(events.some((e) => e.type === "message.assistant" && e.payload.text === "never")).toBe(false);
  });

  it("a turn cut by a crash is marked interrupted and resumes from the log", async () => {
    api = testApi();
    const id = await startScripted(api, [call("read", { path: "README.md" }), { text: "resumed fine" }]);
    // What a crash leaves: an open turn with a model step logged, its tool call never run, no lease.
    await appendEvents(api.t.db, id, [
      { type: "message.user", payload: { text: "go" } },
      { type: "turn.started", payload: { turnId: "trn_crashed" } },
      { type: "message.assistant", payload: { text: "", step: 0 } },
      { type: "tool.called", payload: { callId: "call_1", tool: "read", input: { path: "README.md" } } },
    ]);
    expect(await recoverInterrupted(api.t.db, new Date(Date.now() + 60_000))).toEqual([id]);
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state.status).toBe("interrupted");
    const res = await api.call("POST", `/api/sessions/${id}/resume`);
    expect(res.status).toBe(202);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(results(events)[0]).toMatchObject({ callId: "call_1", ok: true });
    expect(events.some((e) => e.type === "message.assistant" && e.payload.text === "resumed fine")).toBe(true);
    // Resuming an idle session re-checks its mode and starts nothing.
    const again = await api.call("POST", `/api/sessions/${id}/resume`);
    expect(again.body).toEqual({ turn: null, mode: "default" });
  });

  it.each<[string, string, string | null, Record<string, string>, string, string | null]>([
    ["bypassPermissions never comes back", "bypassPermissions", null, { PLANGATE_ENABLE_BYPASS: "0" }, "default", null],
    [
      "auto with its gate closed falls back to default",
      "auto",
      null,
      { PLANGATE_AUTO_GATE: "closed" },
      "default",
      null,
    ],
    ["auto with its gate open stays auto", "auto", null, {}, "auto", null],
    [
      "plan stays plan, a saved bypass becomes default",
      "plan",
      "bypassPermissions",
      { PLANGATE_ENABLE_BYPASS: "0" },
      "plan",
      "default",
    ],
  ])("resume after a crash re-checks the mode: %s", async (_name, mode, prePlanMode, after, want, wantPre) => {
    api = testApi({ env: { PLANGATE_ENABLE_BYPASS: "1", PLANGATE_AUTO_GATE: "open" } });
    const id = await startScripted(api, [{ text: "back" }]);
    await appendEvents(api.t.db, id, [
      {
        type: "mode.changed",
        payload: { from: "default", to: mode as "plan", prePlanMode: prePlanMode as "default" | null, cause: "user" },
      },
      { type: "message.user", payload: { text: "go" } },
      { type: "turn.started", payload: { turnId: "trn_crashed" } },
    ]);
    await recoverInterrupted(api.t.db, new Date(Date.now() + 60_000));
    Object.assign(process.env, after);
    resetEnvCache();
    onTestFinished(() => {
      delete process.env.PLANGATE_ENABLE_BYPASS;
      delete process.env.PLANGATE_AUTO_GATE;
      resetEnvCache();
    });
    const res = await api.call("POST", `/api/sessions/${id}/resume`);
    expect(res.status).toBe(202);
    expect(res.body.mode).toBe(want);
    const { state } = await getSession(api.t.db, id);
    expect([state.mode, state.prePlanMode]).toEqual([want, wantPre]);
    const changes = (await readEvents(api.t.db, id)).flatMap((e) => (e.type === "mode.changed" ? [e.payload] : []));
    if (want !== mode || wantPre !== prePlanMode) expect(changes.at(-1)).toMatchObject({ to: want, cause: "resume" });
    else expect(changes).toHaveLength(1);
    await settle(api, id);
  });

  it("plan mode through the gate: bash runs read-only, writes are denied, the workspace is unchanged", async () => {
    api = testApi();
    const id = await startScripted(
      api,
      [
        call("bash", { command: "echo x > made.txt; cat README.md" }),
        call("write", { path: "src/new.ts", content: "x" }),
        { text: "planned" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
    const { events } = await settle(api, id);
    const [bash, write] = results(events);
    expect(String(bash?.output)).toMatch(/Read-only file system/);
    expect(String(bash?.output)).toContain("A todo service.");
    expect(write).toMatchObject({ ok: false, error: expect.stringMatching(/Permission denied/) });
    expect(fs.existsSync(path.join(api.workspace, "made.txt"))).toBe(false);
    expect(fs.existsSync(path.join(api.workspace, "src/new.ts"))).toBe(false);
  });

  it("an explore subagent is read-only even when its parent may edit", async () => {
    api = testApi();
    const child: Step[] = [call("write", { path: "x.txt", content: "x" }), { text: "explored" }];
    const id = await startScripted(api, [
      call("task", { agent: "explore", prompt: "look", script: child }),
      { text: "ok" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { events } = await settle(api, id);
    expect(results(events)[0]).toMatchObject({ ok: true, output: "explored" });
    expect(fs.existsSync(path.join(api.workspace, "x.txt"))).toBe(false);
  });

  it("the offline demo model explores the real workspace and makes its edit through the gate", async () => {
    api = testApi();
    const res = await api.call("POST", "/api/sessions", { workspace: api.workspace, model: "offline" });
    const id = res.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "Add pagination to the todo service" });
    // Default mode asks before the write: the gate holds it until the user allows it.
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    expect(fs.existsSync(path.join(api.workspace, "PLANGATE-NOTES.md"))).toBe(false);
    const asked = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions as {
      id: string;
      permission: string;
      patterns: string[];
    }[];
    expect(asked.map((p) => [p.permission, p.patterns])).toEqual([["edit", ["PLANGATE-NOTES.md"]]]);
    await api.call("POST", `/api/permissions/${asked[0]?.id}/reply`, { reply: "once" });
    const { events, status } = await settle(api, id);
    expect(status).toBe("idle");
    expect(results(events).map((r) => [r.tool, r.ok])).toEqual([
      ["list", true],
      ["grep", true],
      ["read", true],
      ["write", true],
    ]);
    expect(fs.readFileSync(path.join(api.workspace, "PLANGATE-NOTES.md"), "utf8")).toContain(
      "Add pagination to the todo service",
    );
    expect(events.filter((e) => e.type === "message.assistant").at(-1)?.payload).toMatchObject({
      text: expect.stringContaining("offline demo model"),
    });
  });

  it("the event stream resumes after Last-Event-ID and misses nothing", async () => {
    api = testApi();
    const id = await startScripted(api, [call("read", { path: "README.md" }), { text: "end" }]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { events } = await settle(api, id);
    const controller = new AbortController();
    const res = await stream.GET(
      new Request(`http://127.0.0.1:3000/api/sessions/${id}/stream`, {
        headers: { "last-event-id": "2", ...operatorHeaders() },
        signal: controller.signal,
      }),
      {
        params: Promise.resolve({ id }),
      },
    );
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes(`id: ${events.length}\n`)) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(events.slice(2).map((e) => e.seq));
  });
});

describe("live stream", () => {
  it("streams a running turn's events live, in order, each exactly once", async () => {
    api = testApi();
    const id = await startScripted(api, [call("read", { path: "README.md" }), call("list", {}), { text: "end" }]);
    const controller = new AbortController();
    const res = await stream.GET(
      new Request(`http://127.0.0.1:3000/api/sessions/${id}/stream`, {
        signal: controller.signal,
        headers: operatorHeaders(),
      }),
      {
        params: Promise.resolve({ id }),
      },
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { events } = await settle(api, id);
    let text = "";
    while (!text.includes(`id: ${events.length}\n`)) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(events.map((e) => e.seq));
  });
});

describe("events paging", () => {
  it("before=<seq> gives the page just before that seq; after=<seq> the page after it", async () => {
    api = testApi();
    const id = (await api.call("POST", "/api/sessions", { workspace: api.workspace })).body.session.id as string;
    await appendEvents(
      api.t.db,
      id,
      Array.from({ length: 30 }, (_, i) => ({
        type: "notice" as const,
        payload: { level: "info" as const, text: `n${i}` },
      })),
    );
    const seqs = async (query: string) =>
      ((await api.call("GET", `/api/sessions/${id}/events?${query}`)).body.events as { seq: number }[]).map(
        (e) => e.seq,
      );
    expect(await seqs("before=31&limit=10")).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(await seqs("before=5&limit=10")).toEqual([1, 2, 3, 4]);
    expect(await seqs("before=1")).toEqual([]);
    expect(await seqs("after=28")).toEqual([29, 30, 31]);
  });
});

describe("bad input gets a 4xx naming the problem and changes nothing", () => {
  it.each<[string, string, string, unknown, number, RegExp]>([
    ["workspace outside the roots", "POST", "/api/sessions", { workspace: "/etc" }, 400, /outside the allowed roots/],
    ["missing workspace", "POST", "/api/sessions", { workspace: "/nope/nope" }, 400, /does not exist/],
    [
      "bad script",
      "POST",
      "/api/sessions",
      { model: "scripted", script: [{ toolCalls: [{ name: 5 }] }] },
      400,
      /script/,
    ],
    [
      "script without scripted model",
      "POST",
      "/api/sessions",
      { model: "offline", script: [] },
      400,
      /only the scripted model/,
    ],
    ["unknown agent", "POST", "/api/sessions", { agent: "ghost" }, 400, /unknown agent "ghost"/],
    ["unknown field", "POST", "/api/sessions", { colour: "red" }, 400, /colour/],
    ["bad mode", "POST", "/api/sessions", { mode: "yolo" }, 400, /mode/],
    ["bypass not enabled", "POST", "/api/sessions", { mode: "bypassPermissions" }, 409, /not allowed/],
    ["unknown provider", "POST", "/api/sessions", { model: "acme:x" }, 400, /unknown model provider/],
    ["invalid JSON", "POST", "/api/sessions", "{not json", 400, /not valid JSON/],
    ["empty message", "POST", "/api/sessions/SESSION/messages", { text: "  " }, 400, /text/],
    ["message to a missing session", "POST", "/api/sessions/ses_missing/messages", { text: "hi" }, 404, /No session/],
    ["bad reply", "POST", "/api/permissions/per_x/reply", { reply: "maybe" }, 400, /reply/],
    [
      "reply to a missing request",
      "POST",
      "/api/permissions/per_missing/reply",
      { reply: "once" },
      404,
      /No permission request/,
    ],
    [
      "decision on a missing review",
      "POST",
      "/api/reviews/rev_missing/decision",
      { answers: [["a"]] },
      404,
      /No review/,
    ],
    ["bad session id", "GET", "/api/sessions/..%2Fetc", undefined, 400, /not a valid id/],
    ["bad list filter", "GET", "/api/sessions?status=sleeping", undefined, 400, /status/],
    [
      "events page both ways",
      "GET",
      "/api/sessions/SESSION/events?after=1&before=3",
      undefined,
      400,
      /after and before/,
    ],
    ["events page before 0", "GET", "/api/sessions/SESSION/events?before=0", undefined, 400, /before/],
  ])("%s", async (_name, method, url, body, status, message) => {
    api = testApi();
    const existing = await api.call("POST", "/api/sessions", { workspace: api.workspace });
    const before = await api.t.db.sessionEvent.count();
    const res = await api.call(method, url.replace("SESSION", existing.body.session.id), body);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toMatch(message);
    expect(await api.t.db.sessionEvent.count()).toBe(before);
    expect(await api.t.db.session.count()).toBe(1);
  });

  it("refuses the scripted model unless PLANGATE_ALLOW_SCRIPTED=1", async () => {
    api = testApi({ env: { PLANGATE_ALLOW_SCRIPTED: "0" } });
    const res = await api.call("POST", "/api/sessions", { workspace: api.workspace, model: "scripted", script: [] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/PLANGATE_ALLOW_SCRIPTED/);
  });
});
