import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settle, testApi, type Api, call, startScripted } from "../helpers/api";
import { createDb } from "../../lib/db/client";
import { driveSession } from "../../lib/agent/drive-session";
import { appendEvents } from "../../lib/session/append-events";
import { readEvents } from "../../lib/db/session-log/read-events";
import { foldEvents } from "../../lib/session/log/fold";
import { modeSwitchNotice } from "../../lib/plan/plan-prompt";
import { enter, exitWith, PLAN_V1, PLAN_V2, ofType, resultOf, planKit } from "../helpers/plan-kit";
import { waitFor } from "../helpers/poll";

let api: Api;
afterEach(async () => {
  await api?.close();
});
const { say, stateOf, onlyPendingReview, decide, planRow } = planKit(() => api);

describe("plan mode commands and the mode control (scripted model, real SQLite)", () => {
  it("/plan while idle: committed without a turn or a model message; again → noop; /plan off → committed back", async () => {
    api = testApi();
    const id = await startScripted(api, [{ text: "must not be called" }]);
    const on = await say(id, "/plan");
    expect(on).toEqual({ turn: null, command: { name: "plan", args: "", outcome: "committed" } });
    let events = await readEvents(api.t.db, id);
    expect(await stateOf(id)).toMatchObject({ mode: "plan", prePlanMode: "default", status: "idle" });
    expect(ofType(events, "plan.created")).toHaveLength(1);
    expect(ofType(events, "mode.changed")).toEqual([
      { from: "default", to: "plan", prePlanMode: "default", cause: "command" },
    ]);
    expect(ofType(events, "command.run")).toEqual([{ name: "plan", args: "" }]);
    expect(ofType(events, "turn.started")).toEqual([]);
    expect(ofType(events, "message.user")).toEqual([]);
    expect(ofType(events, "message.assistant")).toEqual([]);
    expect(fs.existsSync(path.dirname((await planRow(id)).filePath))).toBe(true);

    expect((await say(id, "/plan")).command?.outcome).toBe("noop");
    expect((await stateOf(id)).mode).toBe("plan");

    const off = await say(id, "/plan off");
    expect(off).toEqual({ turn: null, command: { name: "plan", args: "off", outcome: "committed" } });
    expect(await stateOf(id)).toMatchObject({ mode: "default", prePlanMode: null, status: "idle" });
    expect((await say(id, "/plan off")).command?.outcome).toBe("noop");

    await new Promise((r) => setTimeout(r, 100));
    events = await readEvents(api.t.db, id);
    // Leaving by /plan off restores the mode plan was entered from.
    expect(ofType(events, "mode.changed").at(-1)).toMatchObject({ from: "plan", to: "default", prePlanMode: null });
    expect(ofType(events, "plan.created")).toHaveLength(1);
    expect(ofType(events, "turn.started")).toEqual([]);
    expect(ofType(events, "message.user").filter((m) => m.text.includes("/plan"))).toEqual([]);
    expect(ofType(events, "message.assistant")).toEqual([]);
  });

  it("/plan off while idle after a plan-mode step: the next model request is told that plan mode is off", async () => {
    api = testApi();
    const id = await startScripted(api, [{ text: "planning" }, { text: "acting" }]);
    await say(id, "/plan look around");
    expect((await settle(api, id)).status).toBe("idle");
    expect((await say(id, "/plan off")).command?.outcome).toBe("committed");
    const events = await readEvents(api.t.db, id);
    const state = foldEvents(events);
    expect(state.mode).toBe("default");
    // What the next request would carry: the model last saw plan mode, the user turned it off by command.
    expect(modeSwitchNotice(state) ?? "(no notice)").toMatch(/turned plan mode off/);
  });

  it("/plan during a running turn: queued, /plan off cancels, /plan queues again and applies at the next step boundary", async () => {
    api = testApi();
    const id = await startScripted(api, [call("bash", { command: "sleep 1" }), { text: "after the boundary" }]);
    await say(id);
    await waitFor("the bash call to start", async () =>
      (await readEvents(api.t.db, id)).some((e) => e.type === "tool.called" && e.payload.tool === "bash"),
    );

    const q1 = await say(id, "/plan");
    expect(q1).toEqual({ turn: null, command: { name: "plan", args: "", outcome: "queued" } });
    expect(await stateOf(id)).toMatchObject({
      mode: "default",
      queuedMode: "plan",
      status: "running",
      plan: { active: false, pending: true },
    });
    const cancel = await say(id, "/plan off");
    expect(cancel.command?.outcome).toBe("cancelled");
    expect(await stateOf(id)).toMatchObject({
      mode: "default",
      queuedMode: null,
      plan: { active: false, pending: false },
    });
    const q2 = await say(id, "/plan");
    expect(q2.command?.outcome).toBe("queued");
    expect((await say(id, "/plan")).command?.outcome).toBe("noop");
    // The bash call is still running: nothing was applied yet.
    const mid = await readEvents(api.t.db, id);
    expect(mid.some((e) => e.type === "tool.result")).toBe(false);

    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(resultOf(events, "bash").ok).toBe(true);
    expect(ofType(events, "mode.queued")).toEqual([
      { target: "plan", cause: "command" },
      { target: null, cause: "command" },
      { target: "plan", cause: "command" },
    ]);
    expect(ofType(events, "mode.changed")).toEqual([
      { from: "default", to: "plan", prePlanMode: "default", cause: "command" },
    ]);
    const order = events.map((e) => e.type);
    const changedAt = order.indexOf("mode.changed");
    expect(changedAt).toBeGreaterThan(order.indexOf("tool.result"));
    expect(ofType(events, "message.assistant").at(-1)).toMatchObject({ text: "after the boundary", mode: "plan" });
    expect(ofType(events, "plan.created")).toHaveLength(1);
    expect(await stateOf(id)).toMatchObject({ mode: "plan", queuedMode: null, status: "idle" });
    expect(ofType(events, "message.user").map((m) => m.text)).toEqual(["go"]);
  });

  it("a queued mode choice survives a restart: a new client on the same file applies it at the next step", async () => {
    api = testApi();
    const id = await startScripted(api, [{ text: "first step after restart" }]);
    // A turn that was open when the process died: in the log, with nobody driving it.
    await appendEvents(api.t.db, id, [
      { type: "message.user", payload: { text: "go" } },
      { type: "turn.started", payload: { turnId: "trn_restart" } },
    ]);
    const queued = await api.call("POST", `/api/sessions/${id}/mode`, { mode: "plan" });
    expect(queued.status).toBe(200);
    expect(queued.body).toEqual({ outcome: "queued", mode: "default", pending: "plan" });

    const db2 = createDb(api.t.url);
    const g = globalThis as { plangateDb?: unknown };
    g.plangateDb = db2;
    try {
      expect(ofType(await readEvents(db2, id), "mode.queued")).toEqual([{ target: "plan", cause: "user" }]);
      await driveSession(db2, id);
      const events = await readEvents(db2, id);
      expect(ofType(events, "mode.changed")).toEqual([
        { from: "default", to: "plan", prePlanMode: "default", cause: "user" },
      ]);
      expect(ofType(events, "plan.created")).toHaveLength(1);
      expect(ofType(events, "message.assistant")).toEqual([
        expect.objectContaining({ text: "first step after restart", mode: "plan" }),
      ]);
      expect(events.at(-1)).toMatchObject({ type: "turn.ended", payload: { turnId: "trn_restart", reason: "done" } });
    } finally {
      g.plangateDb = api.t.db;
      await db2.$disconnect();
    }
    expect(await stateOf(id)).toMatchObject({ mode: "plan", queuedMode: null, status: "idle" });
  });

  it("/plan <message> enters plan mode and sends the message as an ordinary user message", async () => {
    api = testApi();
    const id = await startScripted(api, [{ text: "planning" }]);
    const sent = await say(id, "/plan add tests");
    expect(sent.command).toEqual({ name: "plan", args: "add tests", outcome: "committed" });
    expect(sent.turn).toMatchObject({ queued: false });
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(ofType(events, "message.user").map((m) => m.text)).toEqual(["add tests"]);
    const order = events.map((e) => e.type);
    expect(order.indexOf("mode.changed")).toBeLessThan(order.indexOf("message.user"));
    expect(ofType(events, "mode.changed")).toEqual([
      { from: "default", to: "plan", prePlanMode: "default", cause: "command" },
    ]);
    expect(ofType(events, "message.assistant")).toEqual([expect.objectContaining({ text: "planning", mode: "plan" })]);
    expect(await stateOf(id)).toMatchObject({ mode: "plan", status: "idle" });
  });

  it("POST /mode while idle: acceptEdits → committed, again → noop; an unknown mode → 400", async () => {
    api = testApi();
    const id = await startScripted(api, [{ text: "x" }]);
    const res = await api.call("POST", `/api/sessions/${id}/mode`, { mode: "acceptEdits" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ outcome: "committed", mode: "acceptEdits", pending: null });
    expect(await stateOf(id)).toMatchObject({ mode: "acceptEdits", status: "idle" });
    const again = await api.call("POST", `/api/sessions/${id}/mode`, { mode: "acceptEdits" });
    expect(again.body.outcome).toBe("noop");
    expect((await api.call("POST", `/api/sessions/${id}/mode`, { mode: "yolo" })).status).toBe(400);
    const events = await readEvents(api.t.db, id);
    expect(ofType(events, "mode.changed")).toEqual([
      { from: "default", to: "acceptEdits", prePlanMode: null, cause: "user" },
    ]);
    expect(ofType(events, "turn.started")).toEqual([]);
  });

  it("re-entering plan mode keeps the same plan file, and the next submission is version 2", async () => {
    api = testApi();
    const id = await startScripted(api, [enter, exitWith(PLAN_V1), enter, exitWith(PLAN_V2), { text: "done" }]);
    await say(id);
    await settle(api, id);
    const first = await onlyPendingReview(id);
    const path1 = (await api.call("GET", `/api/reviews/${first.id}`)).body.plan.path as string;
    expect((await decide(first.id, { decision: "approve" })).status).toBe(200);

    const waiting = await settle(api, id);
    expect(waiting.status).toBe("awaiting_review");
    const reentered = resultOf(waiting.events, "enter_plan_mode", 1);
    expect(reentered.ok).toBe(true);
    expect(String(reentered.output)).toContain(path1);
    expect(String(reentered.output)).toMatch(/already holds a plan/);
    const second = await onlyPendingReview(id);
    const details = (await api.call("GET", `/api/reviews/${second.id}`)).body.plan;
    expect(details).toMatchObject({ version: 2, path: path1, markdown: PLAN_V2, previous: { version: 1 } });

    expect((await decide(second.id, { decision: "approve" })).status).toBe(200);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(ofType(events, "plan.created")).toEqual([expect.objectContaining({ path: path1 })]);
    expect(ofType(events, "mode.changed").map((m) => [m.from, m.to, m.cause])).toEqual([
      ["default", "plan", "tool"],
      ["plan", "default", "review"],
      ["default", "plan", "tool"],
      ["plan", "default", "review"],
    ]);
    expect(await api.t.db.plan.count({ where: { sessionId: id } })).toBe(1);
    const plan = await planRow(id);
    expect(plan).toMatchObject({ filePath: path1, currentVersion: 2 });
    expect(fs.readFileSync(path1, "utf8")).toBe(PLAN_V2);
    expect(fs.readdirSync(path.dirname(path1))).toEqual([path.basename(path1)]);
  });
});
