import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settle, testApi, type Api, call, startScripted, type Step } from "../helpers/api";
import { setAutoGate } from "../../lib/session/mode-gates";
import { enter, exitWith, PLAN_V1, PLAN_V2, ofType, resultOf, planKit, type Mode } from "../helpers/plan-kit";

let api: Api;
afterEach(async () => {
  await api?.close();
});
const { say, stateOf, onlyPendingReview, decide, planRow } = planKit(() => api);

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
});
