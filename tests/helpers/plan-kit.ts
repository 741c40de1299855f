import { expect } from "vitest";
import { results, type Api, call } from "./api";
import type { EventPayload, EventType, SessionEvent } from "../../lib/session/log/events";

export type Mode = "default" | "acceptEdits" | "plan" | "auto";

export const enter = call("enter_plan_mode");
export const exitWith = (plan: string) => call("exit_plan_mode", { plan });

export const PLAN_V1 = "# Plan: todo service\n\n1. Add a done flag to todos.\n2. Write a test.\n";
export const PLAN_V2 =
  "# Plan: todo service\n\n1. Add a done flag to todos.\n2. Write a test.\n3. Add a rollback step.\n";

export type ReviewBody = { id: string; kind: string; status: string; intent: unknown; decision: string | null };

export function ofType<T extends EventType>(events: SessionEvent[], type: T): EventPayload<T>[] {
  return events.flatMap((e) => (e.type === type ? [e.payload as EventPayload<T>] : []));
}

export function resultOf(events: SessionEvent[], tool: string, nth = 0) {
  const r = results(events).filter((p) => p.tool === tool)[nth];
  expect(r, `result #${nth} of ${tool}`).toBeDefined();
  return r!;
}

/** Helpers bound to the current test's API (set in beforeEach/afterEach of the test file). */
export function planKit(current: () => Api) {
  const api = () => current();
  async function say(id: string, text = "go") {
    const res = await api().call("POST", `/api/sessions/${id}/messages`, { text });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body as {
      turn: { id: string; queued: boolean } | null;
      command?: { name: string; args: string; outcome: string };
    };
  }
  async function stateOf(id: string) {
    const res = await api().call("GET", `/api/sessions/${id}`);
    expect(res.status).toBe(200);
    return res.body.state as {
      mode: Mode;
      prePlanMode: Mode | null;
      status: string;
      queuedMode: Mode | null;
      plan: { active: boolean; pending: boolean };
      pendingReview: { id: string; kind: string } | null;
    };
  }
  async function pendingReviews(id: string) {
    const res = await api().call("GET", `/api/reviews?status=pending&sessionId=${id}`);
    expect(res.status).toBe(200);
    return res.body.reviews as ReviewBody[];
  }
  async function onlyPendingReview(id: string) {
    const list = await pendingReviews(id);
    expect(list).toHaveLength(1);
    return list[0]!;
  }
  async function decide(reviewId: string, body: Record<string, unknown>) {
    return api().call("POST", `/api/reviews/${reviewId}/decision`, body);
  }
  async function planRow(sessionId: string) {
    const plan = await api().t.db.plan.findFirst({ where: { sessionId } });
    expect(plan).not.toBeNull();
    return plan!;
  }
  return { say, stateOf, pendingReviews, onlyPendingReview, decide, planRow };
}
