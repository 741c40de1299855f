import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { recoverInterrupted } from "../../lib/agent/recover-interrupted";
import { appendEvents } from "../../lib/session/append-events";
import { readEvents } from "../../lib/db/session-log/read-events";
import { results, settle, testApi, type Api, call, type Step } from "../helpers/api";

let api: Api;
afterEach(async () => {
  await api?.close();
});

const PLAN = "# Plan: paginate todos\n\n1. Add `limit` and `cursor` to listTodos\n2. Test it\n";

async function planSession(script: Step[]) {
  const res = await api.call("POST", "/api/sessions", {
    workspace: api.workspace,
    model: "scripted",
    script,
    mode: "plan",
  });
  expect(res.status).toBe(201);
  const id = res.body.session.id as string;
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "paginate the todos" });
  return id;
}

async function planFile(id: string) {
  const plan = await api.t.db.plan.findFirstOrThrow({ where: { sessionId: id } });
  return plan.filePath;
}

describe("fork and recovery", () => {
  it("a fork copies the log to the fork point, takes a new slug and a copy of the plan file, and inherits plan mode", async () => {
    api = testApi();
    const id = await planSession([call("exit_plan_mode", { plan: PLAN }), { text: "after" }]);
    expect((await settle(api, id)).status).toBe("awaiting_review");
    const original = await planFile(id);
    const events = await readEvents(api.t.db, id);
    const at = events.find((e) => e.type === "tool.called")?.seq ?? 1;
    const res = await api.call("POST", `/api/sessions/${id}/fork`, { atSeq: at });
    expect(res.status).toBe(201);
    const forkId = res.body.session.id as string;
    expect(res.body.session.forkedFromId).toBe(id);
    expect(res.body.state).toMatchObject({ mode: "plan", plan: { active: true }, status: "idle", pendingReview: null });
    const copied = await planFile(forkId);
    expect(copied).not.toBe(original);
    expect(fs.readFileSync(copied, "utf8")).toBe(PLAN);
    const forkEvents = await readEvents(api.t.db, forkId);
    expect(forkEvents.slice(0, at).map((e) => [e.seq, e.type])).toEqual(
      events.slice(0, at).map((e) => [e.seq, e.type]),
    );
    expect(forkEvents.at(-1)).toMatchObject({ type: "plan.created" });
    // Writing the fork's plan does not touch the original's.
    fs.writeFileSync(copied, "# Changed in the fork\n");
    expect(fs.readFileSync(original, "utf8")).toBe(PLAN);
    expect((await api.call("POST", `/api/sessions/${id}/fork`, { atSeq: 10_000 })).status).toBe(400);
  });

  it("a deleted plan file is rewritten from the latest plan version when the session resumes", async () => {
    api = testApi();
    const id = await planSession([call("exit_plan_mode", { plan: PLAN }), { text: "after" }]);
    await settle(api, id);
    const file = await planFile(id);
    const [review] = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews;
    await api.call("POST", `/api/reviews/${review.id}/decision`, { decision: "reject", feedback: "more detail" });
    // The turn was running the next step when the process died: the log says so, the lease is gone.
    await settle(api, id);
    await appendEvents(api.t.db, id, [
      { type: "message.user", payload: { text: "continue" } },
      { type: "turn.started", payload: { turnId: "trn_cut" } },
    ]);
    fs.rmSync(file);
    await recoverInterrupted(api.t.db, new Date(Date.now() + 60_000));
    expect((await api.call("POST", `/api/sessions/${id}/resume`)).status).toBe(202);
    expect(fs.readFileSync(file, "utf8")).toBe(PLAN);
    await settle(api, id);
    expect(
      (await readEvents(api.t.db, id)).some(
        (e) => e.type === "notice" && e.payload.text.includes("latest plan version"),
      ),
    ).toBe(true);
  });

  it("without any submitted version the plan is recovered from the exit tool's input in the log", async () => {
    api = testApi();
    const id = await planSession([call("exit_plan_mode", { plan: "not a plan without heading" }), { text: "x" }]);
    await settle(api, id);
    const file = await planFile(id);
    fs.rmSync(file);
    await appendEvents(api.t.db, id, [{ type: "turn.started", payload: { turnId: "trn_cut2" } }]);
    await recoverInterrupted(api.t.db, new Date(Date.now() + 60_000));
    await api.call("POST", `/api/sessions/${id}/resume`);
    expect(fs.readFileSync(file, "utf8")).toBe("not a plan without heading");
    await settle(api, id);
  });

  it("aborting never approves: the review stays pending, and approving later carries on in a new turn", async () => {
    api = testApi();
    const id = await planSession([call("exit_plan_mode", { plan: PLAN }), { text: "carrying it out" }]);
    await settle(api, id);
    expect((await api.call("POST", `/api/sessions/${id}/abort`)).body).toEqual({ aborted: true });
    const [review] = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews;
    expect(review.status).toBe("pending");
    const mid = (await api.call("GET", `/api/sessions/${id}`)).body.state;
    expect(mid).toMatchObject({ mode: "plan", pendingReview: { id: review.id } });
    await api.call("POST", `/api/reviews/${review.id}/decision`, { decision: "approve" });
    const { events, status } = await settle(api, id);
    expect(status).toBe("idle");
    expect(events.some((e) => e.type === "message.assistant" && e.payload.text === "carrying it out")).toBe(true);
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state.mode).toBe("default");
  });

  it("the offline demo model plans in plan mode, asks for approval, then carries the plan out", async () => {
    api = testApi();
    const res = await api.call("POST", "/api/sessions", { workspace: api.workspace, model: "offline", mode: "plan" });
    const id = res.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "Tidy up the todo store" });
    expect((await settle(api, id)).status).toBe("awaiting_review");
    expect(fs.existsSync(`${api.workspace}/PLANGATE-NOTES.md`)).toBe(false);
    const [review] = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews;
    expect(review.intent).toEqual({ kind: "plan-review", approve: "Approve" });
    const detail = await api.call("GET", `/api/reviews/${review.id}`);
    expect(detail.body.plan.markdown).toMatch(/^# Plan: Tidy up the todo store/);
    await api.call("POST", `/api/reviews/${review.id}/decision`, { decision: "approve", mode: "acceptEdits" });
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state.mode).toBe("acceptEdits");
    expect(fs.readFileSync(`${api.workspace}/PLANGATE-NOTES.md`, "utf8")).toContain("Tidy up the todo store");
    expect(results(events).map((r) => r.tool)).toEqual(["list", "grep", "read", "exit_plan_mode", "write"]);
  });
});
