import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { results, settle, testApi, type Api, call, startScripted, type Step } from "../helpers/api";
import { setAutoGate } from "../../lib/session/mode-gates";
import { readEvents } from "../../lib/db/session-log/read-events";
import { enter, exitWith, PLAN_V1, PLAN_V2, ofType, resultOf, planKit, type Mode } from "../helpers/plan-kit";

let api: Api;
afterEach(async () => {
  await api?.close();
});
const { say, stateOf, pendingReviews, onlyPendingReview, decide, planRow } = planKit(() => api);

describe("plan mode lifecycle through the HTTP API (scripted model, real SQLite, real files)", () => {
  type Continuation = {
    name: string;
    created: Mode;
    closeGate: boolean;
    approveMode?: Mode;
    want: Mode;
    cause: string;
  };
  it.each<Continuation>([
    {
      name: "created in default, approve without a mode → default",
      created: "default",
      closeGate: false,
      want: "default",
      cause: "review",
    },
    {
      name: "approve with mode acceptEdits → acceptEdits",
      created: "default",
      closeGate: false,
      approveMode: "acceptEdits",
      want: "acceptEdits",
      cause: "review",
    },
    {
      name: "created in auto with the gate open → auto",
      created: "auto",
      closeGate: false,
      want: "auto",
      cause: "review",
    },
    {
      name: "created in auto, gate closed before approval → default (fallback)",
      created: "auto",
      closeGate: true,
      want: "default",
      cause: "fallback",
    },
  ])("enter → explore → exit → approve → mode restored and later edits in the same turn succeed: $name", async (c) => {
    api = testApi();
    await setAutoGate(api.t.db, true);
    const script: Step[] = [
      enter,
      call("read", { path: "README.md" }),
      exitWith(PLAN_V1),
      call("write", { path: "src/done.ts", content: "export const done = true;\n" }),
      call("edit", { path: "README.md", oldString: "A todo service.", newString: "A todo service, planned." }),
      { text: "implemented" },
    ];
    const id = await startScripted(api, script, { mode: c.created });
    await say(id, "add a done flag");

    const waiting = await settle(api, id);
    expect(waiting.status).toBe("awaiting_review");
    const entered = resultOf(waiting.events, "enter_plan_mode");
    expect(entered.ok).toBe(true);
    const plan = await planRow(id);
    expect(String(entered.output)).toContain(plan.filePath);
    expect(plan.filePath.startsWith(path.join(api.workspace, ".plangate", "plans") + path.sep)).toBe(true);
    expect(ofType(waiting.events, "mode.changed")).toEqual([
      { from: c.created, to: "plan", prePlanMode: c.created, cause: "tool" },
    ]);
    const read = resultOf(waiting.events, "read");
    expect(read.ok).toBe(true);
    expect(String(read.output)).toContain("A todo service.");
    expect(fs.readFileSync(plan.filePath, "utf8")).toBe(PLAN_V1);
    expect(fs.existsSync(path.join(api.workspace, "src/done.ts"))).toBe(false);

    const before = await stateOf(id);
    expect(before).toMatchObject({
      mode: "plan",
      prePlanMode: c.created,
      status: "awaiting_review",
      plan: { active: true },
    });
    const review = await onlyPendingReview(id);
    expect(review).toMatchObject({
      kind: "plan-review",
      status: "pending",
      intent: { kind: "plan-review", approve: "Approve" },
    });
    expect(before.pendingReview).toEqual({ id: review.id, kind: "plan-review" });
    const details = await api.call("GET", `/api/reviews/${review.id}`);
    expect(details.status).toBe(200);
    expect(details.body.plan).toMatchObject({
      version: 1,
      markdown: PLAN_V1,
      path: plan.filePath,
      diff: "",
      previous: null,
      editedByUser: false,
    });

    if (c.closeGate) await setAutoGate(api.t.db, false);
    const decided = await decide(review.id, { decision: "approve", ...(c.approveMode ? { mode: c.approveMode } : {}) });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.review).toMatchObject({ id: review.id, status: "approved", decision: "approve" });

    // "Approve edits manually" (default) asks before each edit; the other continuations do not ask.
    const asked: string[] = [];
    let settled = await settle(api, id);
    while (settled.status === "awaiting_permission") {
      const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions as {
        id: string;
        permission: string;
        patterns: string[];
      }[];
      asked.push(`${ask?.permission} ${ask?.patterns.join(",")}`);
      await api.call("POST", `/api/permissions/${ask?.id}/reply`, { reply: "once" });
      settled = await settle(api, id);
    }
    expect(asked).toEqual(c.want === "default" ? ["edit src/done.ts", "edit README.md"] : []);
    const { status, events } = settled;
    expect(status).toBe("idle");
    const after = await stateOf(id);
    expect(after).toMatchObject({
      mode: c.want,
      prePlanMode: null,
      status: "idle",
      plan: { active: false, pending: false },
      pendingReview: null,
    });
    expect(ofType(events, "mode.changed").at(-1)).toEqual({
      from: "plan",
      to: c.want,
      prePlanMode: null,
      cause: c.cause,
    });

    const exit = resultOf(events, "exit_plan_mode");
    expect(exit.ok).toBe(true);
    expect(String(exit.output)).toContain("User has approved your plan");
    expect(String(exit.output)).toContain(`permission mode: ${c.want}`);
    expect(String(exit.output)).toContain(PLAN_V1.trim());
    expect(String(exit.output)).not.toContain("(edited by user)");

    expect(resultOf(events, "write")).toMatchObject({ ok: true });
    expect(resultOf(events, "edit")).toMatchObject({ ok: true });
    expect(fs.readFileSync(path.join(api.workspace, "src/done.ts"), "utf8")).toBe("export const done = true;\n");
    expect(fs.readFileSync(path.join(api.workspace, "README.md"), "utf8")).toContain("A todo service, planned.");
    // The steps after the approval ran under the restored mode.
    expect(ofType(events, "message.assistant").at(-1)).toMatchObject({ text: "implemented", mode: c.want });
    // The turn ended done (a verification of the work may follow it in the log).
    expect(events.filter((e) => e.type !== "verification.completed").at(-1)).toMatchObject({
      type: "turn.ended",
      payload: { reason: "done" },
    });
    expect(ofType(events, "turn.started")).toHaveLength(1);
    const version = await api.t.db.planVersion.findFirst({ where: { planId: plan.id, version: 1 } });
    expect(version).toMatchObject({ status: "approved", decision: "approve", editedByUser: false });
  });

  it("reject with feedback: the model reads it, submits v2, the review shows version 2 with a diff, then approve", async () => {
    api = testApi();
    const id = await startScripted(api, [enter, exitWith(PLAN_V1), exitWith(PLAN_V2), { text: "done" }]);
    await say(id);
    expect((await settle(api, id)).status).toBe("awaiting_review");
    const first = await onlyPendingReview(id);
    const rejected = await decide(first.id, { decision: "reject", feedback: "Add a rollback step." });
    expect(rejected.status).toBe(200);
    expect(rejected.body.review).toMatchObject({
      status: "rejected",
      decision: "reject",
      feedback: "Add a rollback step.",
    });

    const waiting = await settle(api, id);
    expect(waiting.status).toBe("awaiting_review");
    const r1 = resultOf(waiting.events, "exit_plan_mode", 0);
    expect(r1.ok).toBe(false);
    expect(r1.error).toContain("Add a rollback step.");
    expect(r1.error).toMatch(/did not approve/);
    expect((await stateOf(id)).mode).toBe("plan");
    // Rejecting leaves plan mode alone: only the entry is a mode change.
    expect(ofType(waiting.events, "mode.changed")).toHaveLength(1);

    const second = await onlyPendingReview(id);
    expect(second.id).not.toBe(first.id);
    const details = await api.call("GET", `/api/reviews/${second.id}`);
    expect(details.status).toBe(200);
    const plan = details.body.plan as {
      version: number;
      markdown: string;
      diff: string;
      previous: { version: number; markdown: string } | null;
      path: string;
    };
    expect(plan.version).toBe(2);
    expect(plan.markdown).toBe(PLAN_V2);
    expect(plan.previous).toEqual({ version: 1, markdown: PLAN_V1 });
    expect(plan.diff).not.toBe("");
    expect(plan.diff).toContain("+3. Add a rollback step.");
    expect(plan.path).toBe((await planRow(id)).filePath);
    expect((await api.call("GET", `/api/reviews/${first.id}`)).body.review).toMatchObject({ status: "rejected" });

    expect((await decide(second.id, { decision: "approve" })).status).toBe(200);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect((await stateOf(id)).mode).toBe("default");
    const r2 = resultOf(events, "exit_plan_mode", 1);
    expect(r2.ok).toBe(true);
    expect(String(r2.output)).toContain("3. Add a rollback step.");
    expect(fs.readFileSync((await planRow(id)).filePath, "utf8")).toBe(PLAN_V2);
    const versions = await api.t.db.planVersion.findMany({
      where: { planId: (await planRow(id)).id },
      orderBy: { version: "asc" },
    });
    expect(versions.map((v) => [v.version, v.status])).toEqual([
      [1, "rejected"],
      [2, "approved"],
    ]);
  });

  it("abandon: the turn ends 'abandoned', the session stays in plan mode and no further model step runs", async () => {
    api = testApi();
    const id = await startScripted(api, [enter, exitWith(PLAN_V1), { text: "this step must not run on abandon" }]);
    await say(id);
    const waiting = await settle(api, id);
    expect(waiting.status).toBe("awaiting_review");
    const stepsBefore = ofType(waiting.events, "message.assistant").length;
    expect(stepsBefore).toBe(2);
    const review = await onlyPendingReview(id);

    const res = await decide(review.id, { decision: "abandon" });
    expect(res.status).toBe(200);
    expect(res.body.review).toMatchObject({ status: "abandoned", decision: "abandon" });
    await new Promise((r) => setTimeout(r, 200));
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(events.at(-1)).toMatchObject({ type: "turn.ended", payload: { reason: "abandoned" } });
    const exit = resultOf(events, "exit_plan_mode");
    expect(exit.ok).toBe(false);
    expect(exit.error).toMatch(/Stay in plan mode/);
    expect(ofType(events, "message.assistant")).toHaveLength(stepsBefore);
    expect(await stateOf(id)).toMatchObject({
      mode: "plan",
      prePlanMode: "default",
      status: "idle",
      pendingReview: null,
      plan: { active: true, pending: false },
    });
    expect(await pendingReviews(id)).toEqual([]);
    expect((await api.call("POST", `/api/reviews/${review.id}/decision`, { decision: "approve" })).status).toBe(409);

    // Talking afterwards continues the conversation, still in plan mode.
    await say(id, "let's talk");
    const next = await settle(api, id);
    expect(next.status).toBe("idle");
    expect(ofType(next.events, "message.assistant").at(-1)).toMatchObject({
      text: "this step must not run on abandon",
      mode: "plan",
    });
  });

  it.each([
    {
      name: "approve with a different plan: edited",
      sent: "# Plan: todo service\n\n1. Only add a done flag.\n",
      edited: true,
    },
    { name: "approve with the same text (whitespace aside): not edited", sent: `${PLAN_V1}\n\n`, edited: false },
  ])("edited plan — $name", async ({ sent, edited }) => {
    api = testApi();
    const id = await startScripted(api, [enter, exitWith(PLAN_V1), { text: "ok" }]);
    await say(id);
    await settle(api, id);
    const review = await onlyPendingReview(id);
    expect((await decide(review.id, { decision: "approve", plan: sent })).status).toBe(200);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    const plan = await planRow(id);
    const exit = resultOf(events, "exit_plan_mode");
    expect(exit.ok).toBe(true);
    const version = await api.t.db.planVersion.findFirst({ where: { planId: plan.id, version: 1 } });
    const details = (await api.call("GET", `/api/reviews/${review.id}`)).body.plan;
    if (edited) {
      expect(fs.readFileSync(plan.filePath, "utf8")).toBe(sent);
      expect(String(exit.output)).toContain("## Approved Plan (edited by user)");
      expect(String(exit.output)).toContain("1. Only add a done flag.");
      expect(String(exit.output)).not.toContain("Write a test.");
      expect(version).toMatchObject({ editedByUser: true, content: sent });
      expect(details).toMatchObject({ editedByUser: true, markdown: sent });
    } else {
      expect(fs.readFileSync(plan.filePath, "utf8")).toBe(PLAN_V1);
      expect(String(exit.output)).not.toContain("(edited by user)");
      expect(String(exit.output)).toContain("## Approved Plan");
      expect(version).toMatchObject({ editedByUser: false, content: PLAN_V1 });
      expect(details).toMatchObject({ editedByUser: false });
    }
  });

  it("concurrent decisions: of 20 parallel decisions exactly one wins, 19 get 409, one review.answered", async () => {
    api = testApi();
    const id = await startScripted(api, [enter, exitWith(PLAN_V1), { text: "done" }]);
    await say(id);
    await settle(api, id);
    const review = await onlyPendingReview(id);
    const bodies = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? { decision: "approve" } : { decision: "reject", feedback: `no ${i}` },
    );
    const answers = await Promise.all(bodies.map((b) => decide(review.id, b)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 409).map((a) => a.body)),
    ).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe("already_decided");
    const winner = answers.find((a) => a.status === 200)!;

    const { events } = await settle(api, id);
    expect(ofType(events, "review.answered")).toHaveLength(1);
    expect(ofType(events, "review.answered")[0]).toMatchObject({
      reviewId: review.id,
      decision: winner.body.review.decision,
    });
    expect(results(events).filter((r) => r.tool === "exit_plan_mode")).toHaveLength(1);
    const row = await api.t.db.review.findUnique({ where: { id: review.id } });
    expect(row?.decision).toBe(winner.body.review.decision);
  });

  it("exit_plan_mode outside plan mode fails, telling the model it is not in plan mode (and writes nothing)", async () => {
    api = testApi();
    const id = await startScripted(api, [exitWith(PLAN_V1), { text: "ok" }]);
    await say(id);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    const r = resultOf(events, "exit_plan_mode");
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/plan mode/);
    expect(await api.t.db.review.count({ where: { sessionId: id } })).toBe(0);
    expect(await api.t.db.plan.count({ where: { sessionId: id } })).toBe(0);
    expect(fs.existsSync(path.join(api.workspace, ".plangate"))).toBe(false);
    expect((await stateOf(id)).mode).toBe("default");
  });

  it("a subagent's exit_plan_mode fails and tells it to put the decision in its final result", async () => {
    api = testApi();
    const child: Step[] = [exitWith(PLAN_V1), { text: "child summary" }];
    const id = await startScripted(api, [
      call("task", { agent: "general", prompt: "plan the change", script: child }),
      { text: "parent done" },
    ]);
    await say(id);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(resultOf(events, "task")).toMatchObject({ ok: true, output: "child summary" });
    const kids = await api.t.db.session.findMany({ where: { parentId: id } });
    expect(kids).toHaveLength(1);
    const childEvents = await readEvents(api.t.db, kids[0]!.id);
    const r = resultOf(childEvents, "exit_plan_mode");
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/final result/);
    expect(await api.t.db.review.count()).toBe(0);
  });
});
