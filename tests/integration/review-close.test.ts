import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { enter, exitWith, PLAN_V1 } from "../helpers/plan-kit";
import { waitFor } from "../helpers/poll";

// Issue 25: every way a review closes (a person's decision, the agent's own terminal, a newer plan version, a
// question's answer) must leave the plan as the session list, History and the export show it, never "awaiting
// review" for a plan nothing waits on.
let api: Api;
afterEach(async () => {
  await api?.close();
});

type Verdict = [version: number, status: string, decision: string | null, decidedBy: string | null];

const planStatus = async (id: string) => {
  const { sessions } = (await api.call("GET", "/api/sessions?limit=50")).body as {
    sessions: { id: string; planStatus: string | null }[];
  };
  return sessions.find((s) => s.id === id)?.planStatus;
};
// History lists plan versions newest first: reversed here, they read in the order the list and the export tell them.
const history = async (id: string): Promise<Verdict[]> =>
  (await api.call("GET", `/api/sessions/${id}/history`)).body.history.plans
    .toReversed()
    .map((p: { version: number; status: string; decision: string | null; decidedBy: string | null }) => [
      p.version,
      p.status,
      p.decision,
      p.decidedBy,
    ]);
/** The Markdown export's verdict line of each plan version. */
const exported = async (id: string) => {
  const md = String((await api.call("GET", `/api/sessions/${id}/export?format=md`)).body);
  return [...md.matchAll(/^### Version (\d+): (.*)$/gm)].map((m) => `${m[1]}: ${m[2]?.replace(/ at \d{4}-.*$/, "")}`);
};
/** Everything a person reads about the session's plan. */
const shown = async (id: string) => ({
  list: await planStatus(id),
  history: await history(id),
  export: await exported(id),
});

const PLAN = "# Add a todo filter\n\n1. Add `filter` to src/todo.ts\n2. Test it\n";
const submitOutside = async (plan = PLAN) => {
  const res = await api.call("POST", "/api/external/plan-reviews", {
    agent: "claude-code",
    externalSessionId: "cc-25",
    cwd: api.workspace,
    plan,
    planFilePath: "~/.claude/plans/todo-filter.md",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { sessionId: string; reviewId: string; version: number };
};
const answeredInTerminal = (reviewId: string, answer: string) =>
  api.call("POST", `/api/external/plan-reviews/${reviewId}/answered-elsewhere`, { answer });
const decide = (reviewId: string, body: Record<string, unknown>) =>
  api.call("POST", `/api/reviews/${reviewId}/decision`, body);
const pendingReview = async (id: string) =>
  (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0] as
    | { id: string; kind: string }
    | undefined;

/** Plangate's own agent in plan mode, waiting on its first plan. */
async function ownPlanWaiting(): Promise<{ id: string; reviewId: string }> {
  const id = await startScripted(api, [exitWith(PLAN_V1), { text: "carried on" }], { mode: "plan" });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
  expect((await settle(api, id)).status).toBe("awaiting_review");
  const review = await pendingReview(id);
  expect(review?.kind).toBe("plan-review");
  return { id, reviewId: review!.id };
}

describe("a review's close shows alike in the session list, History and the export", () => {
  it("while a plan waits it shows as awaiting review everywhere", async () => {
    api = testApi();
    const { id } = await ownPlanWaiting();
    expect(await shown(id)).toEqual({
      list: "submitted",
      history: [[1, "submitted", null, null]],
      export: ["1: submitted"],
    });
  });

  it.each([
    ["approve", "approved"],
    ["reject", "rejected"],
    ["abandon", "abandoned"],
  ])("a person decides on the desk (%s)", async (decision, status) => {
    api = testApi();
    const { id, reviewId } = await ownPlanWaiting();
    expect((await decide(reviewId, { decision })).status).toBe(200);
    await settle(api, id);
    // An approval's work is verified in the background when the turn ends: let it finish before the database goes.
    if (decision === "approve")
      await waitFor(
        "the verification",
        async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications.length > 0,
      );
    expect(await shown(id)).toEqual({
      list: status,
      history: [[1, status, decision, "operator"]],
      export: [`1: ${decision} by operator`],
    });
  });

  it.each([
    ["approved", "Approved in the agent's own terminal."],
    ["rejected", "Rejected in the agent's own terminal."],
    ["unknown", "Answered in the agent's own terminal."],
  ])("an outside agent's plan answered in its own terminal (%s) is no longer awaiting review", async (answer, text) => {
    api = testApi();
    const { sessionId, reviewId } = await submitOutside();
    expect(await planStatus(sessionId)).toBe("submitted");
    expect((await answeredInTerminal(reviewId, answer)).status).toBe(200);
    expect(await shown(sessionId)).toEqual({
      list: "answered_elsewhere",
      history: [[1, "answered_elsewhere", answer, "terminal"]],
      export: [`1: ${answer} by terminal`],
    });
    const md = String((await api.call("GET", `/api/sessions/${sessionId}/export?format=md`)).body);
    expect(md).toContain(`Feedback: ${text}`);
    // The review's own page says the same of its version.
    expect((await api.call("GET", `/api/reviews/${reviewId}`)).body.plan.status).toBe("answered_elsewhere");
    expect((await api.call("GET", `/api/sessions/${sessionId}`)).body.state.status).toBe("idle");
  });

  it("a version replaced by a newer one while pending closes as superseded; the newer one is what waits", async () => {
    api = testApi();
    const first = await submitOutside();
    const second = await submitOutside(`${PLAN}3. Document it\n`);
    expect(second).toMatchObject({ sessionId: first.sessionId, version: 2 });
    expect(await shown(first.sessionId)).toEqual({
      list: "submitted",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "submitted", null, null],
      ],
      export: ["1: superseded by claude-code", "2: submitted"],
    });
    // The desk answers the newer one: nothing is left awaiting review.
    expect((await decide(second.reviewId, { decision: "approve" })).status).toBe(200);
    expect(await shown(first.sessionId)).toEqual({
      list: "approved",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "approved", "approve", "operator"],
      ],
      export: ["1: superseded by claude-code", "2: approve by operator"],
    });
  });

  it("superseded, then the newer version answered in the terminal: no version and no plan stays submitted", async () => {
    api = testApi();
    const first = await submitOutside();
    const second = await submitOutside(`${PLAN}3. Document it\n`);
    expect((await answeredInTerminal(second.reviewId, "rejected")).status).toBe(200);
    expect(await shown(first.sessionId)).toEqual({
      list: "answered_elsewhere",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "answered_elsewhere", "rejected", "terminal"],
      ],
      export: ["1: superseded by claude-code", "2: rejected by terminal"],
    });
  });

  it("a teammate's plan decided by a person in the lead's mailbox", async () => {
    api = testApi();
    const lead = await startScripted(api, []);
    const teamId = (await api.call("POST", "/api/teams", { sessionId: lead })).body.team.id as string;
    // A person sent the outside agent's plans to the team (outside agents never join one by themselves); its next
    // plan supersedes the one on the desk and waits in the mailbox.
    const first = await submitOutside();
    expect((await api.call("POST", `/api/teams/${teamId}/members`, { sessionId: first.sessionId })).status).toBe(200);
    const { sessionId } = await submitOutside(`${PLAN}\n3. And a test.\n`);
    const mail = (await api.call("GET", `/api/teams/${teamId}/mailbox?status=pending`)).body.messages as {
      id: string;
    }[];
    expect(mail).toHaveLength(1);
    expect(
      (await api.call("POST", `/api/teams/${teamId}/mailbox/${mail[0]?.id}/reply`, { approve: false, feedback: "no" }))
        .status,
    ).toBe(200);
    expect(await shown(sessionId)).toEqual({
      list: "rejected",
      history: [
        [1, "abandoned", "superseded", "claude-code"],
        [2, "rejected", "reject", "operator"],
      ],
      export: ["1: superseded by claude-code", "2: reject by operator"],
    });
  });

  it.each([
    [{ answers: [["Postgres"]] }, "answered", "answered"],
    [{ decision: "abandon" }, "abandoned", "abandon"],
  ])("a question answered (%j) closes its review and leaves the plan as it was", async (body, status, decision) => {
    api = testApi();
    const id = await startScripted(api, [
      enter,
      call("question", {
        questions: [{ question: "Which store?", options: [{ label: "SQLite" }, { label: "Postgres" }] }],
      }),
      { text: "noted" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_review");
    const question = await pendingReview(id);
    expect(question?.kind).toBe("question");
    expect(await shown(id)).toEqual({ list: "draft", history: [], export: [] });
    expect((await decide(question!.id, body)).status).toBe(200);
    const row = await api.t.db.review.findUniqueOrThrow({ where: { id: question!.id } });
    expect(row).toMatchObject({ status, decision, decidedBy: "user", pendingKey: null, planId: null });
    expect(row.decidedAt).toBeInstanceOf(Date);
    await settle(api, id);
    expect(await shown(id)).toEqual({ list: "draft", history: [], export: [] });
  });
});

// ---- The repair migration, on databases that already hold the drift ----
