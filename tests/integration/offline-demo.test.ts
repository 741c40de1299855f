import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settle, testApi, type Api } from "../helpers/api";
import { waitFor } from "../helpers/plan-kit";

/* A newcomer's first session with the offline demo model: plan, review with comments, revision, approval, a verified plan. */
let api: Api;
afterEach(async () => {
  await api?.close();
});

describe("the offline demo model shows the real loop", () => {
  it("plans from the request, revises from the feedback and a line comment, carries the plan out, and passes its own verification", async () => {
    api = testApi();
    const created = await api.call("POST", "/api/sessions", {
      workspace: api.workspace,
      model: "offline",
      mode: "plan",
    });
    const id = created.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "Add a done flag to the todos" });
    expect((await settle(api, id)).status).toBe("awaiting_review");
    let review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
    const v1 = (await api.call("GET", `/api/reviews/${review}`)).body.plan.markdown as string;
    expect(v1).toContain("# Plan: Add a done flag to the todos");
    expect(v1).toMatch(/## Context\n- Read `src\/todo.ts`/);
    const lines = v1.split("\n");
    const commented = lines.findIndex((l) => l.startsWith("2. ")) + 1;
    await api.call("POST", `/api/reviews/${review}/decision`, {
      decision: "reject",
      feedback: "Mention the default value false.",
      comments: [{ lineStart: commented, lineEnd: commented, body: "keep it short" }],
    });

    expect((await settle(api, id)).status).toBe("awaiting_review");
    review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
    const v2 = (await api.call("GET", `/api/reviews/${review}`)).body.plan.markdown as string;
    expect(v2).toContain("3. Address the review in PLANGATE-NOTES.md: Mention the default value false.");
    expect(v2).toContain("(review: keep it short)");
    expect(v2).not.toContain("The user did not approve");

    await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" });
    const verification = await waitFor(
      "the verification",
      async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
      20_000,
    );
    expect(verification.report.status).toBe("pass");
    expect(fs.readFileSync(path.join(api.workspace, "PLANGATE-NOTES.md"), "utf8")).toContain(
      "Mention the default value false.",
    );
  });
});
