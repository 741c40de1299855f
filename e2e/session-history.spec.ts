import { expect, test } from "@playwright/test";
import { call, exitPlan, say, scripted, waitForStatus, approveVia, openTools } from "./helpers";

test("browsing: search over titles, messages and plans, and filters by status and mode, in the URL", async ({
  page,
  request,
}) => {
  const zebra = await scripted(request, [{ text: "Looked at the stripes." }], {
    mode: "default",
    title: "Zebra migration",
  });
  await say(request, zebra, "move the xylophone table");
  await waitForStatus(request, zebra, "idle");
  const quokka = await scripted(request, [exitPlan("# Plan\n\n1. Teach the quokka to smile\n")], {
    title: "Quokka plan",
  });
  await say(request, quokka, "plan it");
  await waitForStatus(request, quokka, "awaiting_review");

  await page.goto("/");
  const rows = page.getByTestId("session-row");
  await page.getByTestId("filter-q").fill("xylophone");
  await page.getByTestId("apply-filters").click();
  await expect(page).toHaveURL(/q=xylophone/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Zebra migration");
  // The result shows what matched, the word marked.
  await expect(rows.first().getByTestId("search-snippet").locator("mark")).toHaveText("xylophone");

  await page.getByTestId("filter-q").fill("smile");
  await page.getByTestId("apply-filters").click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Quokka plan");
  await expect(rows.first()).toContainText("plan awaiting review");
  await expect(rows.first().getByTestId("search-snippet")).toContainText("Teach the quokka to smile");

  await page.getByTestId("filter-q").fill("");
  // A filter applies as soon as it is chosen: no button press.
  await page.getByTestId("filter-status").selectOption("awaiting_review");
  await expect(page).toHaveURL(/status=awaiting_review/);
  await page.getByTestId("filter-mode").selectOption("plan");
  await expect(page).toHaveURL(/mode=plan/);
  await expect(page).toHaveURL(/status=awaiting_review/);
  await expect(rows.filter({ hasText: "Quokka plan" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Zebra migration" })).toHaveCount(0);
  for (const row of await rows.all()) await expect(row.getByTestId("status-badge")).toHaveText("Plan awaiting review");

  await page.getByTestId("filter-q").fill("nothing-matches-this-qwertyuiop");
  await page.getByTestId("apply-filters").click();
  await expect(page.getByTestId("no-matches")).toBeVisible();
  await rows
    .first()
    .waitFor({ state: "detached" })
    .catch(() => undefined);
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(rows.filter({ hasText: "Zebra migration" })).toHaveCount(1);
});

test("selecting an event shows the state then; plan history beside its versions; fork from an event in the UI", async ({
  page,
  request,
}) => {
  const id = await scripted(
    request,
    [
      call("enter_plan_mode", {}),
      exitPlan("# Plan\n\n1. add a flag\n"),
      exitPlan("# Plan\n\n1. add a flag\n2. test it\n"),
      call("write", { path: "HISTORY.md", content: "h\n" }),
      { text: "Implemented." },
    ],
    { mode: "default", title: "Replay me" },
  );
  await say(request, id, "plan then build");
  await waitForStatus(request, id, "awaiting_review");
  await page.goto(`/sessions/${id}`);
  await page.getByTestId("keep-planning").click();
  await page.getByTestId("plan-feedback").fill("Add a test.");
  await page.getByTestId("send-feedback").click();
  await expect(page.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
  await approveVia(page, "approve-accept-edits");
  await expect(page.getByTestId("timeline")).toContainText("Implemented.", { timeout: 15_000 });

  // The state right after entering plan mode.
  const entered = page
    .locator('[data-testid="timeline-item"][data-kind="mode"]')
    .filter({ hasText: "Ask before edits → Plan" });
  await entered.getByTestId("select-event").click();
  const panel = page.getByTestId("replay-panel");
  await expect(panel.getByTestId("replay-mode")).toContainText("Plan (entered from Ask before edits)");
  await expect(panel.getByTestId("replay-plan-mode")).toHaveText("on");
  await expect(panel.getByTestId("replay-pending-review")).toHaveText("none");

  // A plan version waiting for review, reached with "Go to event #".
  const asked = page
    .locator('[data-testid="timeline-item"][data-kind="plan"]')
    .filter({ hasText: "Plan version 2 submitted" });
  const askedSeq = Number(await asked.getAttribute("data-seq"));
  await openTools(page);
  await page.getByTestId("jump-to").fill(String(askedSeq));
  await page.getByTestId("jump-to").press("Enter");
  await expect(panel).toHaveAttribute("data-seq", String(askedSeq));
  await expect(panel.getByTestId("replay-pending-review")).toContainText("a plan review");
  await expect(panel.getByTestId("replay-status")).toHaveText("Plan awaiting review");

  // The end: approved, out of plan mode.
  await page.locator('[data-testid="timeline-item"]').last().getByTestId("select-event").click();
  await expect(panel.getByTestId("replay-mode")).toContainText("Auto-accept edits");
  await expect(panel.getByTestId("replay-plan-mode")).toHaveText("off");

  await openTools(page);
  const history = page.getByTestId("session-history");
  await history.locator("summary").first().click();
  await expect(history.getByTestId("plan-version-row")).toHaveCount(2);
  await expect(history.getByTestId("plan-version-row").first()).toContainText("reject by operator");
  await expect(history.getByTestId("plan-version-row").first()).toContainText("Feedback: Add a test.");
  await history.getByTestId("plan-version-row").nth(1).locator("summary").click();
  await expect(history.getByTestId("side-by-side").locator('tr[data-kind="added"]')).toContainText("2. test it");
  await expect(history.getByTestId("mode-history-row")).toHaveText([
    /Ask before edits → Plan, by the agent/,
    /Plan → Auto-accept edits, by the plan review/,
  ]);

  // Fork from the point where plan version 2 was waiting: the fork inherits plan mode.
  await openTools(page);
  await page.getByTestId("jump-to").fill(String(askedSeq));
  await page.getByTestId("jump-to").press("Enter");
  await expect(panel).toHaveAttribute("data-seq", String(askedSeq));
  await panel.getByTestId("fork-here").click();
  await expect(page).not.toHaveURL(new RegExp(id));
  await expect(page.getByRole("heading", { name: "Replay me (fork)" })).toBeVisible();
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan");
  await openTools(page);
  await page.getByTestId("session-history").locator("summary").first().click();
  await expect(page.getByTestId("related-session")).toContainText("forked from: Replay me");
});
