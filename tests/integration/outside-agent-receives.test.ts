import { afterEach, describe, expect, it } from "vitest";
import { sql } from "../../lib/db/sql";
import { testApi, type Api } from "../helpers/api";

// Issue 28: an approval of an outside agent's plan carries only what that agent receives. Notes it would never
// see are refused by name (and the review still waits), the card is told what the agent gets, and an approval
// with suggestions applied reaches the hook as the edited plan.
let api: Api;
afterEach(async () => {
  await api?.close();
});

const PLAN = "# Add a todo filter\n\n1. Add `filter` to src/todo.ts\n2. Test it\n";
const submit = (agent: "claude-code" | "opencode") =>
  api.call("POST", "/api/external/plan-reviews", {
    agent,
    externalSessionId: `${agent}-1`,
    cwd: api.workspace,
    plan: PLAN,
    planFilePath: "~/.claude/plans/todo-filter.md",
  });
const outcome = (id: string) => api.call("GET", `/api/external/plan-reviews/${id}?wait=0`);

describe("what an outside agent receives with an approval", () => {
  it.each(["claude-code", "opencode"] as const)(
    "%s: notes with an approval are refused and change nothing; applied suggestions reach it as the plan",
    async (agent) => {
      api = testApi();
      const { reviewId } = (await submit(agent)).body as { reviewId: string };
      const details = (await api.call("GET", `/api/reviews/${reviewId}`)).body.plan;
      expect(details.receives).toMatchObject({ agent, notesOnApproval: false, editedPlan: true });
      expect(details.receives.words).toContain("reach it only with Request changes");
      for (const body of [
        { decision: "approve", feedback: "Also cap the list." },
        { decision: "approve", comments: [{ lineStart: 3, lineEnd: 3, body: "Name the field." }] },
        // A suggestion that is not applied would only be a note.
        { decision: "approve", comments: [{ lineStart: 4, lineEnd: 4, body: "", suggestion: "2. Test the filter" }] },
      ]) {
        const res = await api.call("POST", `/api/reviews/${reviewId}/decision`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toContain("does not receive notes with an approval");
        expect((await outcome(reviewId)).body.status).toBe("pending");
      }
      expect(await api.t.db.planComment.count()).toBe(0);

      const applied = await api.call("POST", `/api/reviews/${reviewId}/decision`, {
        decision: "approve",
        applySuggestions: true,
        comments: [{ lineStart: 4, lineEnd: 4, body: "", suggestion: "2. Test the filter on an empty list" }],
      });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect((await outcome(reviewId)).body).toMatchObject({
        status: "approved",
        edited: true,
        plan: "# Add a todo filter\n\n1. Add `filter` to src/todo.ts\n2. Test the filter on an empty list\n",
      });
      // Its folder is its own: the approval lists nothing of it (no manifest, no tree), and verifies nothing there.
      const [row] = await (await sql(api.t.db)).query<{ baselineTree: string | null; baselineManifest: string | null }>(
        'SELECT v."baselineTree", v."baselineManifest" FROM "PlanVersion" v JOIN "Review" r ON r."planId" = v."planId" AND r."planVersion" = v."version" WHERE r."id" = ?',
        [reviewId],
      );
      expect(row).toEqual({ baselineTree: "none", baselineManifest: null });
    },
  );

  it("feedback with a rejection reaches it, as before", async () => {
    api = testApi();
    const { reviewId } = (await submit("claude-code")).body as { reviewId: string };
    const res = await api.call("POST", `/api/reviews/${reviewId}/decision`, {
      decision: "reject",
      feedback: "Also cap the list.",
      comments: [{ lineStart: 3, lineEnd: 3, body: "Name the field." }],
    });
    expect(res.status).toBe(200);
    const message = (await outcome(reviewId)).body.message as string;
    expect(message).toContain("Also cap the list.");
    expect(message).toContain("Name the field.");
  });
});
