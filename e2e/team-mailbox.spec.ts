import { expect, test } from "@playwright/test";
import { expectAxeClean } from "./axe";
import { createDb } from "../lib/db/client";
import { call, eventsOf, exitPlan, scripted, stateOf, commentOn, openTools } from "./helpers";

test("the lead's mailbox: reject one teammate's plan with feedback, approve the other and the revision; both execute", async ({
  page,
  request,
}) => {
  const lead = await scripted(request, [{ text: "noted" }, { text: "noted" }, { text: "noted" }, { text: "noted" }], {
    mode: "default",
    title: "Team lead",
  });
  await page.goto(`/sessions/${lead}`);
  await openTools(page);
  await page.getByTestId("start-team").click();
  await expect(page).toHaveURL(/\/team\/team_/);
  const teamId = page.url().split("/team/")[1]!;

  const spawn = async (name: string, script: unknown[]) => {
    const res = await request.post(`/api/teams/${teamId}/teammates`, {
      data: { name, task: `task for ${name}`, requirePlanApproval: true, script },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { sessionId: string }).sessionId;
  };
  const alice = await spawn("alice", [
    exitPlan("# Alice\n\n1. add a field to TEAM-ALICE.md\n"),
    exitPlan("# Alice\n\n1. add a field to TEAM-ALICE.md\n2. add a test note to TEAM-ALICE.md\n"),
    call("write", { path: "TEAM-ALICE.md", content: "a\n" }),
    { text: "alice done" },
  ]);
  const bob = await spawn("bob", [
    exitPlan("# Bob\n\n1. write docs in TEAM-BOB.md\n"),
    call("write", { path: "TEAM-BOB.md", content: "b\n" }),
    { text: "bob done" },
  ]);

  const cards = page.getByTestId("decision-card");
  await expect(cards).toHaveCount(2, { timeout: 15_000 });
  const aliceCard = cards.filter({ hasText: "Plan from alice" });
  const bobCard = cards.filter({ hasText: "Plan from bob" });
  // The lead's card is the session's card: a mode for the teammate, an edited plan, comments on lines.
  await expect(aliceCard.getByTestId("approve")).toContainText("Approve, auto-accept its edits");
  for (const id of ["approve-options", "comment-block", "more-actions", "keep-planning"])
    await expect(aliceCard.getByTestId(id).first()).toBeVisible();
  await expect(page.getByTestId("teammate")).toHaveCount(2);
  await expect(page.locator('[data-testid="teammate"][data-name="alice"]')).toHaveAttribute(
    "data-status",
    "awaiting_approval",
  );
  await page.screenshot({ path: "e2e/screenshots/team-mailbox.png", fullPage: true });
  // Words only: no protocol names, request ids or raw states on the mailbox page.
  const text = await page.locator("main").textContent();
  for (const raw of ["plan_approval_request", "requestId", "rev_", "awaiting_approval", "acceptEdits", "unread"])
    expect(text).not.toContain(raw);
  await expectAxeClean(page);

  // A teammate's session points to the mailbox instead of offering its own decision card.
  const other = await page.context().newPage();
  await other.goto(`/sessions/${alice}`);
  await expect(other.getByTestId("waiting-for-lead")).toBeVisible();
  await expect(other.getByTestId("decision-card")).toHaveCount(0);
  await other.close();

  await commentOn(aliceCard, 3, 3, "Which field?");
  await aliceCard.getByTestId("keep-planning").click();
  await aliceCard.getByTestId("plan-feedback").fill("Add a test step.");
  await aliceCard.getByTestId("send-feedback").click();
  await bobCard.getByTestId("approve").click();

  const revised = page.getByTestId("decision-card").filter({ hasText: "Plan from alice" });
  await expect(revised.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
  await expect(revised.getByTestId("plan-diff-lines")).toContainText("+2. add a test note to TEAM-ALICE.md");
  // The lead's comment came with the feedback: alice's model read it quoting its line.
  const sentBack = (await eventsOf(request, alice)).find(
    (e) => e.type === "tool.result" && e.payload.tool === "exit_plan_mode",
  );
  expect(String(sentBack?.payload.error)).toContain("> 1. add a field to TEAM-ALICE.md");
  expect(String(sentBack?.payload.error)).toContain("Which field?");
  // Line 3 reads the same in version 2: the thread is open beside it.
  await expect(revised.locator('[data-testid="thread"][data-status="open"]')).toHaveCount(1);
  await expect(page.getByTestId("decision-card")).toHaveCount(1);
  await revised.getByTestId("approve").click();
  await expect(page.getByTestId("no-pending")).toBeVisible({ timeout: 15_000 });

  await expect
    .poll(async () => [(await stateOf(request, alice)).status, (await stateOf(request, bob)).status], {
      timeout: 15_000,
    })
    .toEqual(["idle", "idle"]);
  // Their files changed as planned, but their workspace has no verify command, so nothing checked the work: the
  // mailbox says so (issue 42), never "Done".
  const finished = page.locator('[data-testid="teammate"][data-status="unverified"]');
  await expect(finished).toHaveCount(2, { timeout: 10_000 });
  await expect(finished.first()).toContainText("Finished, not checked");
  await expect(page.locator('[data-testid="teammate"][data-status="done"]')).toHaveCount(0);
  const aliceResults = (await eventsOf(request, alice))
    .filter((e) => e.type === "tool.result")
    .map((e) => [e.payload.tool, e.payload.ok]);
  expect(aliceResults).toEqual([
    ["exit_plan_mode", false],
    ["exit_plan_mode", true],
    ["write", true],
  ]);
  await expect(page.getByTestId("mail").filter({ hasText: "Sent back: Add a test step." })).toHaveCount(1);

  // From the UI: a teammate spawned with plan approval starts planning.
  await page.getByTestId("spawn-form").getByLabel("Name").fill("carol");
  await page.getByTestId("spawn-form").getByLabel("Task").fill("look around");
  await page.getByTestId("spawn-form").getByRole("button", { name: "Spawn" }).click();
  await expect(page.locator('[data-testid="teammate"][data-name="carol"]')).toHaveAttribute("data-status", "planning", {
    timeout: 10_000,
  });
});

test("a team that has talked a long time opens on its latest 50 messages; Earlier messages shows the rest, once each", async ({
  page,
  request,
}) => {
  const lead = await scripted(request, [], { mode: "default", title: "Chatty lead" });
  const made = await request.post("/api/teams", { data: { sessionId: lead, name: "Chatty team" } });
  expect(made.status(), await made.text()).toBe(201);
  const teamId = ((await made.json()) as { team: { id: string } }).team.id;
  const db = createDb("file:./data/e2e/plangate.db");
  try {
    for (let seq = 1; seq <= 61; seq++)
      await db.mailboxMessage.create({
        data: {
          id: `msg_chatty_${teamId}_${seq}`,
          teamId,
          seq,
          fromSession: lead,
          toSession: lead,
          type: "message",
          payload: JSON.stringify({ text: `note ${seq}` }),
          status: "read",
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
        },
      });
  } finally {
    await db.$disconnect();
  }
  await page.goto(`/team/${teamId}`);
  const mail = page.getByTestId("mail");
  // Each message's text, in the order shown.
  const texts = async () => (await mail.locator("p:last-child").allTextContents()).map((t) => t.trim());
  const notes = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `note ${from + i}`);
  await expect(mail).toHaveCount(50);
  // In team order, ending on the latest.
  expect(await texts()).toEqual(notes(12, 61));
  await page.getByTestId("earlier-mail").click();
  await expect(mail).toHaveCount(11);
  expect(await texts()).toEqual(notes(1, 11));
  await expect(page.getByTestId("earlier-mail")).toHaveCount(0);
  await page.getByTestId("latest-mail").click();
  await expect(mail).toHaveCount(50);
  expect(await texts()).toEqual(notes(12, 61));
  // A page that is not a number shows the latest and says so; it is never an error page. Another parameter
  // beside a good one changes nothing.
  await page.goto(`/team/${teamId}?mailBefore=abc`);
  await expect(page.getByTestId("mail-query-invalid")).toBeVisible();
  await expect(mail).toHaveCount(50);
  await page.goto(`/team/${teamId}?mailBefore=12&utm_source=mail`);
  await expect(mail).toHaveCount(11);
  await expect(page.getByTestId("mail-query-invalid")).toHaveCount(0);
});
