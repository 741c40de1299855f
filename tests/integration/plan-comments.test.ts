import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, call, results, settle, startScripted, testApi, type Api } from "../helpers/api";

/* A plan review as good as a pull-request review: comments on lines go with the decision, are kept per version. */
let api: Api;
afterEach(async () => {
  await api?.close();
});

const V1 = "# Plan\n\n1. Add a cache\n2. Use Redis for it\n3. Write tests\n";
const V2 = "# Plan\n\n1. Add a cache\n2. Use an in-memory map for it\n3. Write tests\n";

const review = (id: string) => awaitReview(api, id);

describe("line comments on a plan", () => {
  it("keep planning sends the comments quoting their lines; v2 shows them resolved or not; History and exports keep them", async () => {
    api = testApi();
    const id = await startScripted(
      api,
      [call("exit_plan_mode", { plan: V1 }), call("exit_plan_mode", { plan: V2 }), { text: "done" }],
      { mode: "plan", title: "Cache plan" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan a cache" });
    const first = await review(id);
    const comments = [
      { lineStart: 4, lineEnd: 4, body: "No new infrastructure: keep it in memory." },
      { lineStart: 3, lineEnd: 5, body: "Say how the cache is invalidated." },
      { lineStart: 5, lineEnd: 5, body: "Which tests?" },
    ];
    expect((await api.call("POST", `/api/reviews/${first}/decision`, { decision: "reject", comments })).status).toBe(
      200,
    );
    const second = await review(id);
    const { events } = await settle(api, id);
    const sentBack = results(events).find((r) => r.tool === "exit_plan_mode")?.error ?? "";
    expect(sentBack).toContain("Comments on lines of the plan (3)");
    expect(sentBack).toContain("- Line 4:\n  > 2. Use Redis for it\n  No new infrastructure: keep it in memory.");
    expect(sentBack).toContain("- Lines 3–5:");

    const details = (await api.call("GET", `/api/reviews/${second}`)).body.plan;
    expect(details.earlier.map((c: { lineStart: number; resolved: boolean }) => [c.lineStart, c.resolved])).toEqual([
      [3, true],
      [4, true],
      // Line 5 is unchanged in version 2: that comment is not resolved yet.
      [5, false],
    ]);
    const history = (await api.call("GET", `/api/sessions/${id}/history`)).body.history;
    expect(history.plans[0].comments.map((c: { quote: string }) => c.quote)).toEqual([
      "1. Add a cache\n2. Use Redis for it\n3. Write tests",
      "2. Use Redis for it",
      "3. Write tests",
    ]);
    const md = (await api.call("GET", `/api/sessions/${id}/export?format=md`)).body as string;
    expect(md).toContain("- Line 4 (“2. Use Redis for it”): No new infrastructure: keep it in memory.");
    expect((await api.call("GET", `/api/sessions/${id}/export?format=json`)).body.comments).toHaveLength(3);

    // Approving with a comment sends it as a note with the approval.
    expect(
      (
        await api.call("POST", `/api/reviews/${second}/decision`, {
          decision: "approve",
          comments: [{ lineStart: 4, lineEnd: 4, body: "Cap it at 1,000 entries." }],
        })
      ).status,
    ).toBe(200);
    const done = await settle(api, id);
    expect(
      String(
        results(done.events)
          .filter((r) => r.tool === "exit_plan_mode")
          .at(-1)?.output,
      ),
    ).toContain("Cap it at 1,000 entries.");
  });

  it("a comment on lines the plan does not have, a quote sent by the client, or comments on an abandon are refused and change nothing", async () => {
    api = testApi();
    const id = await startScripted(api, [call("exit_plan_mode", { plan: V1 })], { mode: "plan" });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
    const rev = await review(id);
    for (const body of [
      { decision: "reject", comments: [{ lineStart: 2, lineEnd: 99, body: "x" }] },
      { decision: "reject", comments: [{ lineStart: 3, lineEnd: 2, body: "x" }] },
      { decision: "reject", comments: [{ lineStart: 1, lineEnd: 1, body: "x", quote: "forged" }] },
      { decision: "abandon", comments: [{ lineStart: 1, lineEnd: 1, body: "x" }] },
    ]) {
      const res = await api.call("POST", `/api/reviews/${rev}/decision`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.call("GET", `/api/reviews/${rev}`)).body.review.status).toBe("pending");
    expect(await api.t.db.planComment.count()).toBe(0);
  });
});
