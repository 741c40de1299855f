import fs from "node:fs";
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
    type Thread = { lineStart: number; status: string; at: { lineStart: number } | null };
    expect(details.threads.map((t: Thread) => [t.lineStart, t.status, t.at?.lineStart ?? null])).toEqual([
      // Both quote "2. Use Redis for it", which version 2 no longer has: outdated, their quote kept.
      [3, "outdated", null],
      [4, "outdated", null],
      // Line 5 reads the same in version 2 (still line 5): the thread is open beside it.
      [5, "open", 5],
    ]);
    const history = (await api.call("GET", `/api/sessions/${id}/history`)).body.history;
    expect(history.plans.at(-1).comments.map((c: { quote: string }) => c.quote)).toEqual([
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

const V3 = "# Plan\n\n1. Add a cache\n2. Use an in-memory map for it\n3. Write unit tests for hits and misses\n";
type Thread = { id: string; status: string; resolvedBy: string | null; comments: { body: string }[] };

describe("threads and suggestions", () => {
  it("a reply and a resolve on an earlier thread go to the agent; resolved stays resolved on the next version", async () => {
    api = testApi();
    const id = await startScripted(
      api,
      [
        call("exit_plan_mode", { plan: V1 }),
        call("exit_plan_mode", { plan: V2 }),
        call("exit_plan_mode", { plan: V3 }),
        { text: "done" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan a cache" });
    const first = await review(id);
    const comments = [
      { lineStart: 4, lineEnd: 4, body: "No new infrastructure." },
      { lineStart: 5, lineEnd: 5, body: "Which tests?" },
    ];
    await api.call("POST", `/api/reviews/${first}/decision`, { decision: "reject", comments });
    const second = await review(id);
    const [redis, tests] = (await api.call("GET", `/api/reviews/${second}`)).body.plan.threads as Thread[];
    const res = await api.call("POST", `/api/reviews/${second}/decision`, {
      decision: "reject",
      threads: [
        { id: redis!.id, resolve: true },
        { id: tests!.id, reply: "Name the cases, not just 'tests'." },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const third = await review(id);
    const sentBack = results((await settle(api, id)).events)
      .filter((r) => r.tool === "exit_plan_mode")
      .at(-1)?.error;
    expect(sentBack).toContain("On earlier comments (2):");
    expect(sentBack).toContain("- On “2. Use Redis for it”: (resolved)");
    expect(sentBack).toContain("- On “3. Write tests”: Name the cases, not just 'tests'.");

    // Version 3 rewrote line 5: the open thread is outdated now, the resolved one stays resolved, by the operator.
    const threads = (await api.call("GET", `/api/reviews/${third}`)).body.plan.threads as Thread[];
    expect(threads.map((t) => [t.status, t.resolvedBy, t.comments.map((c) => c.body)])).toEqual([
      ["resolved", "operator", ["No new infrastructure."]],
      ["outdated", null, ["Which tests?", "Name the cases, not just 'tests'."]],
    ]);
  });

  it("approving with the suggestions applied gives the agent, and the plan file, the plan as suggested", async () => {
    api = testApi();
    const id = await startScripted(api, [call("exit_plan_mode", { plan: V1 }), { text: "done" }], { mode: "plan" });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan a cache" });
    const rev = await review(id);
    const { path: planPath } = (await api.call("GET", `/api/reviews/${rev}`)).body.plan;
    const res = await api.call("POST", `/api/reviews/${rev}/decision`, {
      decision: "approve",
      applySuggestions: true,
      comments: [
        { lineStart: 4, lineEnd: 4, body: "Keep it in memory.", suggestion: "2. Use an in-memory map for it" },
        { lineStart: 5, lineEnd: 5, body: "", suggestion: "" },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const output = String(
      results((await settle(api, id)).events)
        .filter((r) => r.tool === "exit_plan_mode")
        .at(-1)?.output,
    );
    expect(output).toContain(
      "## Approved Plan (edited by user)\n\n# Plan\n\n1. Add a cache\n2. Use an in-memory map for it",
    );
    expect(output).not.toContain("3. Write tests\n\n");
    expect(output).toContain("Suggested: remove these lines.");
    expect(fs.readFileSync(planPath, "utf8")).toBe("# Plan\n\n1. Add a cache\n2. Use an in-memory map for it\n");
  });

  it("a thread id from elsewhere, suggestions applied without any, overlapping or with a reject are refused and change nothing", async () => {
    api = testApi();
    const other = await startScripted(api, [call("exit_plan_mode", { plan: V1 })], { mode: "plan" });
    await api.call("POST", `/api/sessions/${other}/messages`, { text: "plan" });
    const otherRev = await review(other);
    await api.call("POST", `/api/reviews/${otherRev}/decision`, {
      decision: "reject",
      comments: [{ lineStart: 4, lineEnd: 4, body: "elsewhere" }],
    });
    const foreign = (await api.t.db.planComment.findFirstOrThrow()).id;

    const id = await startScripted(api, [call("exit_plan_mode", { plan: V1 })], { mode: "plan" });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
    const rev = await review(id);
    const s = (lineStart: number, lineEnd: number) => ({ lineStart, lineEnd, body: "", suggestion: "x" });
    for (const [body, names] of [
      [
        { decision: "reject", threads: [{ id: foreign, resolve: true }] },
        `threads.0: this plan has no earlier thread ${foreign}`,
      ],
      [
        { decision: "approve", applySuggestions: true, comments: [{ lineStart: 4, lineEnd: 4, body: "no" }] },
        "no suggestion",
      ],
      [{ decision: "approve", applySuggestions: true, comments: [s(3, 4), s(4, 5)] }, "overlaps"],
      [{ decision: "reject", applySuggestions: true, comments: [s(4, 4)] }, "applySuggestions"],
      [{ decision: "approve", applySuggestions: true, plan: V2, comments: [s(4, 4)] }, "applySuggestions"],
      [{ decision: "reject", threads: [{ id: foreign }] }, "reply"],
    ] as const) {
      const res = await api.call("POST", `/api/reviews/${rev}/decision`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(names);
    }
    expect((await api.call("GET", `/api/reviews/${rev}`)).body.review.status).toBe("pending");
    const foreignRow = await api.t.db.planComment.findUniqueOrThrow({ where: { id: foreign } });
    expect(foreignRow.resolvedAt).toBeNull();
    expect(await api.t.db.planComment.count()).toBe(1);
  });
});
