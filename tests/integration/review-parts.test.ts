import { afterEach, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/db/session-log/read-events";
import { awaitReview, call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { ofType } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";

// Issue 42, point 1, on both engines: every part of a submitted review (the decision, its comments, suggestions,
// replies, resolutions and note) is stored in one transaction, whatever the decision, including an approval that
// does not meet the review policy yet; or refused whole with a message.
let api: Api;
afterEach(async () => {
  await api?.close();
});
const { person, setPolicy } = policyKit(() => api);

const V1 = "# Plan\n\n1. Add a cache\n2. Use Redis for it\n3. Write tests\n";
const V2 = "# Plan\n\n1. Add a cache\n2. Use a map for it\n3. Write tests\n";
type Thread = { id: string; status: string; resolvedBy: string | null; comments: { body: string }[] };

/** A plan at version 2 with one thread started on version 1 (line 4, "2. Use Redis for it"). */
async function versionTwo(policy?: Record<string, unknown>) {
  api = testApi();
  if (policy) await setPolicy(policy);
  const id = await startScripted(
    api,
    [call("exit_plan_mode", { plan: V1 }), call("exit_plan_mode", { plan: V2 }), { text: "done" }],
    { mode: "plan" },
  );
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan a cache" });
  const first = await awaitReview(api, id);
  const started = await api.call("POST", `/api/reviews/${first}/decision`, {
    decision: "reject",
    comments: [{ lineStart: 4, lineEnd: 4, body: "Why Redis?" }],
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const reviewId = await awaitReview(api, id);
  const [thread] = (await api.call("GET", `/api/reviews/${reviewId}`)).body.plan.threads as Thread[];
  return { id, reviewId, threadId: thread!.id };
}

const DECISIONS = {
  approve: { decision: "approve" },
  "request changes": { decision: "reject", feedback: "Not yet." },
  "approve, policy not met": { decision: "approve" },
} as const;
type Decision = keyof typeof DECISIONS;
const PARTS = {
  resolve: (threadId: string) => ({ threads: [{ id: threadId, resolve: true }] }),
  reply: (threadId: string) => ({ threads: [{ id: threadId, reply: "A map is enough." }] }),
  suggest: () => ({ comments: [{ lineStart: 5, lineEnd: 5, body: "Name them", suggestion: "3. Write cache tests" }] }),
} as const;
type Part = keyof typeof PARTS;

const cases = (Object.keys(DECISIONS) as Decision[]).flatMap((d) =>
  (Object.keys(PARTS) as Part[]).map((p): [Decision, Part] => [d, p]),
);

describe("every part of a review is stored with its decision", () => {
  it.each(cases)("%s × %s: stored in the one transaction, with an event", async (decision, part) => {
    const unmet = decision === "approve, policy not met";
    const { id, reviewId, threadId } = await versionTwo(unmet ? { approvals: 2 } : undefined);
    const bo = await person();
    const res = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { ...DECISIONS[decision], feedback: "My note.", ...PARTS[part](threadId) },
      bo,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await api.t.db.review.findUniqueOrThrow({ where: { id: reviewId } });
    expect(stored.status).toBe(unmet ? "pending" : decision === "approve" ? "approved" : "rejected");
    const comments = await api.t.db.planComment.findMany({ orderBy: { createdAt: "asc" } });
    const root = comments.find((c) => c.id === threadId);
    if (part === "resolve") {
      // The thread is resolved by the person who resolved it, whatever the decision (issue 42: it was lost).
      expect(root?.resolvedBy).toMatch(/^p\d+/);
      expect(root?.resolvedAt).toBeInstanceOf(Date);
    } else expect(root?.resolvedBy ?? null).toBeNull();
    if (part === "reply")
      expect(comments.filter((c) => c.parentId === threadId).map((c) => [c.body, c.version])).toEqual([
        ["A map is enough.", 2],
      ]);
    if (part === "suggest")
      expect(comments.filter((c) => c.version === 2).map((c) => [c.body, c.suggestion])).toEqual([
        ["Name them", "3. Write cache tests"],
      ]);
    const events = await readEvents(api.t.db, id);
    if (unmet) {
      // The recorded approval's event says what it carried, with the note; the audit entry keeps the note too.
      const [approved] = ofType(events, "review.approved");
      expect(approved).toMatchObject({ reviewId, summary: "1 of 2 approvals", note: "My note." });
      expect(approved?.review).toEqual({
        comments: part === "suggest" ? 1 : 0,
        replies: part === "reply" ? 1 : 0,
        resolved: part === "resolve" ? 1 : 0,
      });
      expect(ofType(events, "review.answered").filter((a) => a.reviewId === reviewId)).toHaveLength(0);
    } else {
      const answered = ofType(events, "review.answered").filter((a) => a.reviewId === reviewId);
      expect(answered.map((a) => [a.decision, a.feedback])).toEqual([[DECISIONS[decision].decision, "My note."]]);
      const text = results((await settle(api, id)).events)
        .filter((r) => r.tool === "exit_plan_mode")
        .at(-1);
      const said = String(text?.output ?? text?.error ?? "");
      if (part === "resolve") expect(said).toContain("(resolved)");
      if (part === "reply") expect(said).toContain("A map is enough.");
      if (part === "suggest") expect(said).toContain("3. Write cache tests");
    }
  });

  it("a review with one bad part is refused whole: nothing of it is stored", async () => {
    const { reviewId, threadId } = await versionTwo({ approvals: 2 });
    const bo = await person();
    const before = await api.t.db.planComment.count();
    const res = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      {
        decision: "approve",
        threads: [{ id: threadId, resolve: true }],
        comments: [{ lineStart: 40, lineEnd: 40, body: "past the end" }],
      },
      bo,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/comments\.0: the plan has \d+ lines, not 40/);
    expect(await api.t.db.planComment.count()).toBe(before);
    expect(await api.t.db.reviewApproval.count({ where: { reviewId } })).toBe(0);
    const root = await api.t.db.planComment.findUniqueOrThrow({ where: { id: threadId } });
    expect(root.resolvedBy).toBeNull();
  });
});

describe("suggestions under a review policy (point 4)", () => {
  it("approve with suggestions applied is a send-back as version N+1, never a late failure; the agent submits it again", async () => {
    const { id, reviewId } = await versionTwo({ approvals: 2 });
    const bo = await person();
    const res = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", applySuggestions: true, ...PARTS.suggest() },
      bo,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await api.t.db.review.findUniqueOrThrow({ where: { id: reviewId } });
    expect([stored.status, stored.decision]).toEqual(["rejected", "reject"]);
    expect(await api.t.db.reviewApproval.count({ where: { reviewId } })).toBe(0);
    const { events } = await settle(api, id);
    const sent = results(events).filter((r) => r.tool === "exit_plan_mode")[1];
    expect(String(sent?.error)).toContain("a changed plan is a new version that needs its approvals again");
    expect(String(sent?.error)).toContain("3. Write cache tests");
  });
});

describe("an outside agent's plan approved by the operator (point 9)", () => {
  it("status and policy agree: the approval is stored under the plain policy too", async () => {
    api = testApi();
    const cc = { agent: "claude-code", externalSessionId: "cc-plain", cwd: api.workspace };
    const v1 = await api.call("POST", "/api/external/plan-reviews", { ...cc, plan: "# Plan\n\n1. one\n" });
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    const done = await api.call("POST", `/api/reviews/${v1.body.reviewId}/decision`, { decision: "approve" });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.review.status).toBe("approved");
    expect(done.body.review.policy.met).toBe(true);
    expect(done.body.review.policy.line).toMatch(/^Approved by the operator \(\d\d:\d\d\)$/);
    expect(await api.t.db.reviewApproval.count({ where: { reviewId: v1.body.reviewId } })).toBe(1);
  });
});
