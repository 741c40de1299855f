import { expect, test } from "@playwright/test";
import { blockAt, exitPlan, say, signedIn, waitForStatus } from "./helpers";
import { reviewersOf, twoApprovals } from "./shared-server";

// Issue 42, points 1, 2 and 4 as two reviewers meet them, each in their own browser, under a two-approval policy:
// a resolved thread goes with an approval that does not meet the policy yet (stored, not lost); the approver is told
// that her approval counts and what it waits for, with no Approve; the other reviewer's suggestion is offered as a
// send-back as the next version, never ticked by default.
const PEOPLE = ["uma@example.com", "vic@example.com"];
const { workspace: WORKSPACE } = reviewersOf("standing-e2e", PEOPLE);
const V1 = "# Plan\n\n1. Add a cache\n2. Use Redis for it\n3. Write tests\n";
const V2 = "# Plan\n\n1. Add a cache\n2. Use a map for it\n3. Write tests\n";
const V3 = "# Plan\n\n1. Add a cache\n2. Use a map for it\n3. Write cache tests\n";

test("a resolved thread goes with an approval the policy still waits on; the approver sees why Approve is gone; a suggestion is a send-back", async ({
  browser,
  request,
  baseURL,
}) => {
  await twoApprovals(request, WORKSPACE);
  const created = await request.post("/api/sessions", {
    data: {
      model: "scripted",
      mode: "plan",
      workspace: WORKSPACE,
      script: [exitPlan(V1), exitPlan(V2), exitPlan(V3), { text: "Done." }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { session: { id: string } }).session.id;
  await say(request, id, "plan a cache");
  await waitForStatus(request, id, "awaiting_review");
  const pendingId = async () => {
    const state = (await (await request.get(`/api/sessions/${id}`)).json()) as {
      state: { pendingReview: { id: string } | null };
    };
    return state.state.pendingReview?.id ?? "";
  };
  // Version 1 goes back with a comment on line 4: version 2 has a thread on it.
  const v1 = await pendingId();
  const back = await request.post(`/api/reviews/${v1}/decision`, {
    data: { decision: "reject", comments: [{ lineStart: 4, lineEnd: 4, body: "Why Redis?" }] },
  });
  expect(back.status(), await back.text()).toBe(200);
  await expect.poll(pendingId).not.toBe(v1);
  const v2 = await pendingId();
  expect(v2).not.toBe("");

  const [uma, vic] = [
    await signedIn(browser, baseURL ?? "", PEOPLE[0]!),
    await signedIn(browser, baseURL ?? "", PEOPLE[1]!),
  ];
  // Uma resolves the thread and approves: one of two approvals.
  await uma.page.goto(`/sessions/${id}`);
  const card = uma.page.getByTestId("decision-card");
  await expect(uma.page.getByTestId("policy-status")).toContainText("Needs 2 more: 2 reviewers");
  await card.getByTestId("resolve-thread").click();
  await expect(card.getByTestId("review-summary")).toHaveText("Your review: 1 thread resolved");
  await card.getByTestId("approve").click();
  await expect(uma.page.getByTestId("policy-status")).toContainText(
    /Approved by uma@example\.com \(\d\d:\d\d\) · Needs 1 more: a reviewer/,
  );
  await expect(uma.page.getByTestId("approve-blocked")).toContainText(
    /You approved at \d\d:\d\d · waiting for a reviewer/,
  );
  await expect(uma.page.getByTestId("approve")).toBeDisabled();
  // What the server stored: the thread resolved by Uma, her approval, the review still pending.
  const shown = (await (await request.get(`/api/reviews/${v2}`)).json()) as {
    review: { status: string; policy: { approved: { name: string }[] } };
    plan: { threads: { status: string; resolvedBy: string | null }[] };
  };
  expect(shown.review.status).toBe("pending");
  expect(shown.review.policy.approved.map((a) => a.name)).toEqual(["uma@example.com"]);
  expect(shown.plan.threads.map((t) => [t.status, t.resolvedBy])).toEqual([["resolved", "uma@example.com"]]);
  // A second approval of hers is a 409 that says so.
  const again = await uma.context.request.post(`/api/reviews/${v2}/decision`, {
    data: { decision: "approve" },
    headers: { origin: baseURL ?? "" },
  });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/^You approved at/);

  // Her desk does not say "Needs you"; Vic's does.
  // This review's row (other specs on the same server may leave plans waiting on the desk).
  const row = (p: typeof uma.page) =>
    p.locator(`[data-testid="desk-item"][data-item="${v2}"]`).getByTestId("desk-needs");
  await uma.page.goto("/desk");
  await expect(row(uma.page)).toContainText("Approved by uma@example.com");
  await expect(row(uma.page)).not.toContainText("Needs you");
  await vic.page.goto("/desk");
  await expect(row(vic.page)).toContainText("Needs you");

  // Vic suggests a change: offered as a send-back as version 3, not ticked; ticked, Approve says what it does.
  await vic.page.goto(`/sessions/${id}`);
  const vcard = vic.page.getByTestId("decision-card");
  await (await blockAt(vcard, 5)).getByTestId("comment-block").click();
  await vcard.getByTestId("suggest-change").click();
  await vcard.getByTestId("suggestion-text").fill("3. Write cache tests");
  await vcard.getByTestId("add-comment").click();
  await expect(vcard.getByTestId("apply-suggestions")).not.toBeChecked();
  // The checkbox's own label (its parent) says what ticking it does.
  await expect(vcard.getByTestId("apply-suggestions").locator("xpath=..")).toContainText("send back as version 3");
  await vcard.getByTestId("apply-suggestions").check();
  await expect(vcard.getByTestId("approve")).toHaveText("Apply and send back as version 3");
  await vcard.getByTestId("approve").click();
  await expect(vcard.getByTestId("decision-error")).toHaveCount(0);
  await expect.poll(pendingId).not.toBe(v2);
  const sent = (await (await request.get(`/api/reviews/${v2}`)).json()) as { review: { status: string } };
  expect(sent.review.status).toBe("rejected");
  await expect(vic.page.getByTestId("plan-version")).toHaveText("version 3", { timeout: 15_000 });
  await uma.context.close();
  await vic.context.close();
});
