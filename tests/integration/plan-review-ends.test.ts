// Plan mode through the HTTP API, beyond approve and reject (plan-review.test.ts): abandon, twenty decisions
// racing, and exit_plan_mode called where there is no plan to decide (outside plan mode, by a subagent).
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { results, settle, testApi, type Api, call, startScripted, type Step } from "../helpers/api";
import { readEvents } from "../../lib/db/session-log/read-events";
import { enter, exitWith, PLAN_V1, ofType, resultOf, planKit } from "../helpers/plan-kit";

let api: Api;
afterEach(async () => {
  await api?.close();
});
const { say, stateOf, pendingReviews, onlyPendingReview, decide, planRow } = planKit(() => api);
describe("plan mode's other ends through the HTTP API: abandon, racing decisions, an exit where there is no plan", () => {
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
