import { expect, test } from "@playwright/test";
import { exitPlan, say, waitForStatus, approveVia, signedIn } from "./helpers";
import { reviewersOf, twoApprovals } from "./shared-server";

// Issue 27 in the browser: the operator sets a workspace's review policy to two approvals on its workspace page;
// two reviewers, each in their own browser, approve the plan in turn. The first approval leaves it waiting (the
// card says what is still needed), the second releases the agent; the timeline names both.
const PEOPLE = ["rhea@example.com", "sol@example.com"];
const { workspace: WORKSPACE } = reviewersOf("policy-e2e", PEOPLE);

test("two approvals from two people in two browsers: the first waits, the second releases", async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  // The operator (this context's header) sets the policy in the browser.
  await page.goto(`/workspace?path=${encodeURIComponent(WORKSPACE)}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect(page.getByTestId("policy-summary")).toContainText("One approval");
  await page.getByTestId("policy-approvals").fill("2");
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-message")).toHaveText("Saved.");
  await expect(page.getByTestId("policy-summary")).toContainText("2 approvals from different people");

  const created = await request.post("/api/sessions", {
    data: {
      model: "scripted",
      mode: "plan",
      workspace: WORKSPACE,
      script: [exitPlan("# Plan\n\n1. Write notes.md\n"), { text: "Done." }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { session: { id: string } }).session.id;
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");

  const [rhea, sol] = [
    await signedIn(browser, baseURL ?? "", PEOPLE[0]!),
    await signedIn(browser, baseURL ?? "", PEOPLE[1]!),
  ];
  await rhea.page.goto(`/sessions/${id}`);
  await expect(rhea.page.getByTestId("policy-status")).toContainText("Needs 2 more: 2 reviewers");
  // The card names the files the plan's items name: what the policy judges it by.
  await expect(rhea.page.getByTestId("plan-files")).toHaveText("Touches 1 file: notes.md");
  await approveVia(rhea.page.getByTestId("decision-card"), "approve-accept-edits");
  await expect(rhea.page.getByTestId("policy-status")).toContainText(
    /Approved by rhea@example\.com \(\d\d:\d\d\) · Needs 1 more: a reviewer/,
  );
  // Issue 42: her approval counts already: she is told so, and Approve is not offered again.
  await expect(rhea.page.getByTestId("approve-blocked")).toContainText(
    /You approved at \d\d:\d\d · waiting for a reviewer/,
  );
  await expect(rhea.page.getByTestId("approve")).toBeDisabled();
  await expect(rhea.page.getByTestId("timeline")).toContainText("Approved by rhea@example.com · 1 of 2 approvals");
  expect((await (await request.get(`/api/sessions/${id}`)).json()).state.status).toBe("awaiting_review");

  // Routing: the plan now waits for someone other than Rhea.
  await rhea.page.goto("/");
  await expect(rhea.page.getByTestId("waiting-for-others")).toContainText("Waiting for other reviewers (1)");
  await sol.page.goto("/");
  await expect(sol.page.getByTestId("waiting-sessions").locator(`a[href="/sessions/${id}"]`)).toHaveCount(1);

  await sol.page.goto(`/sessions/${id}`);
  await expect(sol.page.getByTestId("policy-status")).toContainText("Approved by rhea@example.com");
  await expect(sol.page.getByTestId("approve")).toBeEnabled();
  await approveVia(sol.page.getByTestId("decision-card"), "approve-accept-edits");
  await expect(sol.page.getByTestId("decision-card")).toHaveCount(0);
  await expect(sol.page.getByTestId("timeline")).toContainText("by sol@example.com", { timeout: 15_000 });
  await waitForStatus(request, id, "idle");
  await rhea.context.close();
  await sol.context.close();
});

test("a teammate's plan under the policy: two reviewers approve on its session page, the lead's mailbox releases it", async ({
  browser,
  page,
  request,
  baseURL,
}) => {
  await twoApprovals(request, WORKSPACE);
  const created = await request.post("/api/sessions", {
    data: { model: "scripted", mode: "default", workspace: WORKSPACE, title: "Policy lead", script: [{ text: "ok" }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lead = ((await created.json()) as { session: { id: string } }).session.id;
  const team = await request.post("/api/teams", { data: { sessionId: lead } });
  expect(team.status(), await team.text()).toBe(201);
  const teamId = ((await team.json()) as { team: { id: string } }).team.id;
  const spawned = await request.post(`/api/teams/${teamId}/teammates`, {
    data: {
      name: "tess",
      task: "write the notes",
      requirePlanApproval: true,
      script: [exitPlan("# Tess\n\n1. Write notes.md\n"), { text: "tess done" }],
    },
  });
  expect(spawned.status(), await spawned.text()).toBe(201);
  const tess = ((await spawned.json()) as { sessionId: string }).sessionId;
  await waitForStatus(request, tess, "awaiting_review");

  const [rhea, sol] = [
    await signedIn(browser, baseURL ?? "", PEOPLE[0]!),
    await signedIn(browser, baseURL ?? "", PEOPLE[1]!),
  ];
  for (const [who, before, after] of [
    [rhea, "Needs 2 more: 2 reviewers", "You approved at"],
    [sol, "Needs 1 more: a reviewer", "The policy is met"],
  ] as const) {
    await who.page.goto(`/sessions/${tess}`);
    await expect(who.page.locator("html[data-hydrated]")).toHaveCount(1);
    await expect(who.page.getByTestId("waiting-for-lead")).toBeVisible();
    await expect(who.page.getByTestId("decision-card")).toHaveCount(0);
    await expect(who.page.getByTestId("policy-status")).toContainText(before);
    await who.page.getByTestId("record-approval").click();
    await expect(who.page.getByTestId("policy-approval-card")).toContainText(after);
  }
  // Met, yet still the lead's: the plan waits for the mailbox.
  await expect(sol.page.getByTestId("record-approval")).toHaveCount(0);
  await expect(sol.page.getByTestId("timeline")).toContainText("Approved by rhea@example.com · 1 of 2 approvals");
  expect((await (await request.get(`/api/sessions/${tess}`)).json()).state.status).toBe("awaiting_review");

  await page.goto(`/team/${teamId}`);
  const card = page.getByTestId("decision-card").filter({ hasText: "Plan from tess" });
  await card.getByTestId("approve").click();
  await waitForStatus(request, tess, "idle");
  await rhea.context.close();
  await sol.context.close();
});
