import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { exitWith, PLAN_V1, PLAN_V2 } from "../helpers/plan-kit";
import { readEvents } from "../../lib/db/session-log/read-events";

let api: Api;
afterEach(async () => {
  await api?.close();
});

type PlanRow = { version: number; status: string; decision: string | null; content: string };
// Oldest first (History lists newest first), as the log tells them.
const plansOf = async (id: string) =>
  ((await api.call("GET", `/api/sessions/${id}/history`)).body.history.plans as PlanRow[])
    .toReversed()
    .map((p) => [p.version, p.status, p.decision]);
const pending = async (id: string) =>
  (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;

// Issue 42: a fork's History said "0 plan versions" though its log (copied from the source) held them.
describe("a fork's history", () => {
  it("counts the plan versions its copied log holds, as they stood at the fork point", async () => {
    api = testApi();
    const id = await startScripted(api, [
      call("enter_plan_mode"),
      exitWith(PLAN_V1),
      exitWith(PLAN_V2),
      exitWith(`${PLAN_V2}4. And a third version.\n`),
      { text: "done" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
    await settle(api, id);
    await api.call("POST", `/api/reviews/${await pending(id)}/decision`, { decision: "reject", feedback: "more" });
    await settle(api, id);
    await api.call("POST", `/api/reviews/${await pending(id)}/decision`, { decision: "reject", feedback: "again" });
    await settle(api, id);
    // Forked while version 3 waits for its review.
    const atPending = (await readEvents(api.t.db, id)).at(-1)?.seq as number;
    const fork = await api.call("POST", `/api/sessions/${id}/fork`, { atSeq: atPending });
    expect(fork.status).toBe(201);
    const forkId = fork.body.session.id as string;
    // The source goes on: version 3 approved there, after the fork.
    await api.call("POST", `/api/reviews/${await pending(id)}/decision`, { decision: "approve", mode: "acceptEdits" });
    await settle(api, id);

    expect(await plansOf(id)).toEqual([
      [1, "rejected", "reject"],
      [2, "rejected", "reject"],
      [3, "approved", "approve"],
    ]);
    // The fork holds the three versions; the one pending at the fork point was cancelled there, not approved.
    expect(await plansOf(forkId)).toEqual([
      [1, "rejected", "reject"],
      [2, "rejected", "reject"],
      [3, "cancelled", null],
    ]);
    // Issue 43: the copied versions page like the fork's own (newest first), each still diffed against the one before.
    const page = async (after = "") =>
      (await api.call("GET", `/api/sessions/${forkId}/history?plansLimit=2${after && `&plansAfter=${after}`}`)).body
        .history;
    const first = await page();
    expect([first.plans.map((p: PlanRow) => p.version), first.totals.plans]).toEqual([[3, 2], 3]);
    const second = await page(first.plansNext);
    expect([second.plans.map((p: PlanRow) => p.version), second.plansNext]).toEqual([[1], null]);
    const whole = (await api.call("GET", `/api/sessions/${forkId}/history`)).body.history.plans;
    expect([...first.plans, ...second.plans]).toEqual(whole);
    // A fork made before any plan holds none; a fork of the fork carries what it carried.
    const early = await api.call("POST", `/api/sessions/${id}/fork`, { atSeq: 1 });
    expect(await plansOf(early.body.session.id)).toEqual([]);
    const again = await api.call("POST", `/api/sessions/${forkId}/fork`, {});
    expect(again.status).toBe(201);
    expect((await plansOf(again.body.session.id)).map((p) => p[0])).toEqual([1, 2, 3]);
  });
});
