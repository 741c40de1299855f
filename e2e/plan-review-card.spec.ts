// Runs after home.spec.ts (files run in name order, one worker): home asserts the empty state of a fresh database.
import { expect, test, type Page } from "@playwright/test";
import {
  call,
  eventsOf,
  exitPlan,
  exitResults,
  say,
  scripted,
  stateOf,
  waitForStatus,
  approveVia,
  moreAction,
} from "./helpers";

const PLAN =
  '# Plan: notes\n\n| Step | File |\n| --- | --- |\n| 1 | NOTES.md |\n\n- [ ] write the note\n\n```ts\nconst x = 1;\n```\n\n<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned = 2">\n\n[click me](javascript:window.__pwned=3)\n\nInline <b onclick="window.__pwned = 4">bold</b> and <iframe src="javascript:window.__pwned=5"></iframe> end.\n';
const WRITE = call("write", { path: "NOTES.md", content: "done\n" });

async function openReview(page: Page, id: string) {
  await page.goto(`/sessions/${id}`);
  const card = page.getByTestId("decision-card");
  await expect(card).toBeVisible();
  return card;
}

test("a plan review is a decision card: sanitised plan, Approve (double-clicked) sends one decision and the agent executes", async ({
  page,
  request,
}) => {
  const id = await scripted(request, [exitPlan(PLAN), WRITE, { text: "All done." }]);
  await say(request, id, "write notes");
  await waitForStatus(request, id, "awaiting_review");

  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs++;
    void d.dismiss();
  });
  const card = await openReview(page, id);
  await expect(card.getByRole("table")).toBeVisible();
  await expect(card.getByRole("checkbox")).toHaveCount(1);
  await expect(card.locator("pre code")).toContainText("const x = 1;");
  await expect(card.locator("script")).toHaveCount(0);
  await expect(card.locator("img")).toHaveCount(0);
  await expect(card.locator("[onerror]")).toHaveCount(0);
  await expect(card.locator('a[href^="javascript"]')).toHaveCount(0);
  await expect(card.locator("iframe, b, [onclick]")).toHaveCount(0);
  await expect(card.getByText("click me")).toBeVisible();
  await card.getByText("click me").click();
  await expect(card).toContainText(/Inline bold and\s+end\./);
  await expect(card.getByTestId("plan-version")).toHaveText("version 1");
  await page.screenshot({ path: "e2e/screenshots/decision-card-desktop.png", fullPage: true });
  await card.getByTestId("approve-options").click();
  await expect(card.getByTestId("approve-accept-edits")).toContainText("Approve, auto-accept edits");
  // A double click decides once: the menu closes on the first, the second lands on nothing that decides.
  await card.getByTestId("approve-accept-edits").dblclick();
  await expect(page.getByTestId("composer")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("timeline")).toContainText("All done.", { timeout: 15_000 });
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "acceptEdits");
  const events = await eventsOf(request, id);
  expect(events.filter((e) => e.type === "review.answered")).toHaveLength(1);
  expect(events.filter((e) => e.type === "tool.result" && e.payload.tool === "write" && e.payload.ok)).toHaveLength(1);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toBe(0);
});

test("approve and approve edits manually: the write asks, Allow once runs it", async ({ page, request }) => {
  const id = await scripted(request, [
    exitPlan("# Plan\n\n1. write MANUAL.md"),
    call("write", { path: "MANUAL.md", content: "approved by hand\n" }),
    { text: "Wrote it." },
  ]);
  await say(request, id, "write notes");
  await waitForStatus(request, id, "awaiting_review");
  const card = await openReview(page, id);
  await approveVia(card, "approve-review-edits");
  const ask = page.getByTestId("permission-card");
  await expect(ask).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "default");
  await expect(ask.getByTestId("permission-diff")).toContainText("+approved by hand");
  await ask.getByTestId("allow-once").click();
  await expect(page.getByTestId("timeline")).toContainText("Wrote it.", { timeout: 15_000 });
  await expect(ask).toHaveCount(0);
});

test("approve in auto mode: the agent executes without asking", async ({ page, request }) => {
  const id = await scripted(request, [exitPlan("# Plan\n\n1. write NOTES.md"), WRITE, { text: "Auto done." }]);
  await say(request, id, "write notes");
  await waitForStatus(request, id, "awaiting_review");
  const card = await openReview(page, id);
  await approveVia(card, "approve-auto");
  await expect(page.getByTestId("timeline")).toContainText("Auto done.", { timeout: 15_000 });
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "auto");
  expect((await eventsOf(request, id)).filter((e) => e.type === "permission.asked")).toHaveLength(0);
});

test("keep planning sends feedback; the v2 card shows the diff from v1; approve", async ({ page, request }) => {
  const v1 = "# Plan\n\n1. write NOTES.md\n";
  const v2 = "# Plan\n\n1. write NOTES.md\n2. add a test for it\n";
  const id = await scripted(request, [exitPlan(v1), exitPlan(v2), WRITE, { text: "Done after v2." }]);
  await say(request, id, "write notes");
  await waitForStatus(request, id, "awaiting_review");
  const card = await openReview(page, id);
  await card.getByTestId("keep-planning").click();
  await card.getByTestId("plan-feedback").fill("Please add a test step.");
  // The first send fails on the way: the latch re-arms and shows why; the second send goes through.
  await page.route(
    "**/decision",
    (route) =>
      route.fulfill({ status: 503, json: { error: { code: "internal", message: "The server is restarting." } } }),
    { times: 1 },
  );
  await card.getByTestId("send-feedback").click();
  await expect(card.getByTestId("decision-error")).toHaveText("The server is restarting.");
  await expect(card.getByTestId("send-feedback")).toBeEnabled();
  await card.getByTestId("send-feedback").click();
  await expect(card.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
  await expect(card.getByTestId("plan-diff-lines")).toContainText("+2. add a test for it");
  await page.screenshot({ path: "e2e/screenshots/decision-card-v2-diff.png", fullPage: true });
  const [rejected] = await exitResults(request, id);
  expect(rejected?.ok).toBe(false);
  expect(rejected?.error).toContain("Please add a test step.");
  await approveVia(card, "approve-accept-edits");
  await expect(page.getByTestId("timeline")).toContainText("Done after v2.", { timeout: 15_000 });
});

test("chat about it (a click) sets the review aside: composer back, still in plan mode; Esc never does", async ({
  page,
  request,
}) => {
  const id = await scripted(request, [exitPlan("# Plan A"), exitPlan("# Plan B")]);
  await say(request, id, "plan something");
  await waitForStatus(request, id, "awaiting_review");
  const card = await openReview(page, id);
  await moreAction(card, "chat-about-it");
  await expect(page.getByTestId("composer")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan");
  await expect.poll(async () => (await stateOf(request, id)).status).toBe("idle");

  await page.getByTestId("composer-input").fill("What about option B?");
  await page.getByTestId("composer-input").press("Enter");
  await expect(page.getByTestId("decision-card")).toBeVisible({ timeout: 15_000 });
  // Esc anywhere on the page decides nothing: the review is still waiting.
  await page.keyboard.press("Escape");
  await page.getByTestId("decision-card").press("Escape");
  await expect.poll(async () => (await stateOf(request, id)).status).toBe("awaiting_review");
  await moreAction(page, "chat-about-it");
  await expect(page.getByTestId("composer")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan");
  const answers = (await eventsOf(request, id))
    .filter((e) => e.type === "review.answered")
    .map((e) => e.payload.decision);
  expect(answers).toEqual(["abandon", "abandon"]);
});

test("edit the plan in place, then approve (Ctrl+Enter, the default choice: review each edit): the model is told it was edited", async ({
  page,
  request,
}) => {
  const id = await scripted(request, [exitPlan("# Plan\n\n1. write NOTES.md\n"), WRITE, { text: "Edited plan done." }]);
  await say(request, id, "write notes");
  await waitForStatus(request, id, "awaiting_review");
  const card = await openReview(page, id);
  await moreAction(card, "edit-plan");
  const editor = card.getByTestId("plan-editor");
  await expect(editor).toHaveValue(/write NOTES.md/);
  await editor.fill("# Plan\n\n1. write NOTES.md\n2. keep it short (added by the reviewer)\n");
  await editor.press("Control+Enter");
  // Created in plan mode, so the default is Ask before edits: the write asks.
  await page.getByTestId("permission-card").getByTestId("allow-once").click({ timeout: 15_000 });
  await expect(page.getByTestId("timeline")).toContainText("Edited plan done.", { timeout: 15_000 });
  const [approved] = await exitResults(request, id);
  expect(approved?.ok).toBe(true);
  expect(approved?.output).toContain("## Approved Plan (edited by user)");
  expect(approved?.output).toContain("keep it short (added by the reviewer)");
});
