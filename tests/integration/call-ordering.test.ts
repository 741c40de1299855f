import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { recoverInterrupted } from "../../lib/agent/recover-interrupted";
import { appendEvents } from "../../lib/session/append-events";
import { readEvents } from "../../lib/db/session-log/read-events";
import { awaitReview, call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { ofType } from "../helpers/plan-kit";

/* Calls are judged by the mode they were issued in, and each call runs at most once, with its outcome logged. */
let api: Api;
afterEach(async () => {
  await api?.close();
});

const pendingReview = (id: string) => awaitReview(api, id);

describe("calls are judged by the mode they were issued in", () => {
  it("a write issued beside exit_plan_mode in plan mode is refused after the approval, and told to issue it again", async () => {
    api = testApi();
    const step = {
      toolCalls: [
        { name: "read", input: { path: "README.md" } },
        { name: "exit_plan_mode", input: { plan: "# Plan\n\n1. Read only; create no file.\n" } },
        { name: "write", input: { path: "src/b14.txt", content: "sneaked\n" } },
      ],
    };
    const id = await startScripted(api, [step, { text: "done" }], { mode: "plan" });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
    const review = await pendingReview(id);
    await api.call("POST", `/api/reviews/${review}/decision`, {
      decision: "approve",
      mode: "acceptEdits",
      plan: "# Plan\n\n1. Do not create any file.\n",
    });
    const { events } = await settle(api, id);
    const write = results(events).find((r) => r.tool === "write");
    expect(write).toMatchObject({ ok: false, error: expect.stringContaining("issued in plan mode") });
    expect(write?.error).toContain("issue it again now");
    expect(fs.existsSync(path.join(api.workspace, "src/b14.txt"))).toBe(false);
  });
});

describe("an abort and a permission reply are serialised", () => {
  it("in 8 racing trials, a command runs if and only if its result (or interruption) is logged", async () => {
    api = testApi();
    for (let trial = 0; trial < 8; trial++) {
      const marker = `RAN-${trial}`;
      const id = await startScripted(api, [call("bash", { command: `touch ${marker}` }), { text: "done" }]);
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
      expect((await settle(api, id)).status).toBe("awaiting_permission");
      const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
      await Promise.all([
        api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }),
        api.call("POST", `/api/sessions/${id}/abort`),
      ]);
      const { events } = await settle(api, id);
      await new Promise((r) => setTimeout(r, 50));
      const ran = fs.existsSync(path.join(api.workspace, marker));
      const logged = results(await readEvents(api.t.db, id)).length;
      expect({ trial, ran, logged: logged > 0 }).toEqual({ trial, ran, logged: ran });
      if (!ran) expect(events.some((e) => e.type === "tool.started")).toBe(false);
    }
  });
});

describe("a call cut by a crash is not run again", () => {
  it("resume reports the started command as interrupted and does not repeat it", async () => {
    api = testApi();
    const id = await startScripted(api, [
      call("bash", { command: "echo ran >> count.txt" }),
      { text: "after the crash" },
    ]);
    // What kill -9 leaves mid-command: the call was allowed and started, its result never logged, no lease.
    await appendEvents(api.t.db, id, [
      { type: "message.user", payload: { text: "go" } },
      { type: "turn.started", payload: { turnId: "trn_crashed" } },
      { type: "message.assistant", payload: { text: "", step: 0, mode: "default" } },
      { type: "tool.called", payload: { callId: "call_1", tool: "bash", input: { command: "echo ran >> count.txt" } } },
      { type: "tool.started", payload: { callId: "call_1" } },
    ]);
    expect(await recoverInterrupted(api.t.db, new Date(Date.now() + 60_000))).toEqual([id]);
    expect((await api.call("POST", `/api/sessions/${id}/resume`)).status).toBe(202);
    const { events, status } = await settle(api, id);
    expect(status).toBe("idle");
    expect(results(events)[0]).toMatchObject({
      callId: "call_1",
      ok: false,
      error: expect.stringContaining("Interrupted"),
    });
    expect(fs.existsSync(path.join(api.workspace, "count.txt"))).toBe(false);
    expect(ofType(events, "message.assistant").map((m) => m.text)).toContain("after the crash");
  });
});

describe("a fork made at a pending review", () => {
  it("closes the dangling exit_plan_mode as cancelled instead of running it again at its next message", async () => {
    api = testApi();
    const id = await startScripted(api, [call("exit_plan_mode", { plan: "# Plan\n\n1. x\n" }), { text: "after" }], {
      mode: "plan",
    });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
    const review = await pendingReview(id);
    const fork = await api.call("POST", `/api/sessions/${id}/fork`, {});
    expect(fork.status).toBe(201);
    const forkId = fork.body.session.id as string;
    const closed = results(await readEvents(api.t.db, forkId)).find((r) => r.tool === "exit_plan_mode");
    expect(closed).toMatchObject({ ok: false, error: expect.stringContaining("Cancelled in this fork") });
    await api.call("POST", `/api/sessions/${forkId}/messages`, { text: "go on" });
    const { status } = await settle(api, forkId);
    expect(status).toBe("idle");
    expect((await api.call("GET", `/api/reviews?status=pending&sessionId=${forkId}`)).body.reviews).toEqual([]);
    expect((await api.call("GET", `/api/reviews/${review}`)).body.review.status).toBe("pending");
  });
});

describe("an approval with a note", () => {
  it("passes the note to the model with the approval, and History keeps it", async () => {
    api = testApi();
    const id = await startScripted(api, [call("exit_plan_mode", { plan: "# Plan\n\n1. x\n" }), { text: "done" }], {
      mode: "plan",
    });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
    const review = await pendingReview(id);
    const note = "Keep the public API unchanged.";
    expect(
      (await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", feedback: note })).status,
    ).toBe(200);
    const { events } = await settle(api, id);
    expect(String(results(events).find((r) => r.tool === "exit_plan_mode")?.output)).toContain(
      `Notes from the reviewer, to follow while you carry out the plan:\n${note}`,
    );
    const history = (await api.call("GET", `/api/sessions/${id}/history`)).body.history;
    expect(JSON.stringify(history.plans)).toContain(note);
  });
});
