import { expect, test } from "@playwright/test";
import { expectAxeClean } from "./axe";
import { call, exitPlan, say, scripted, waitForStatus, approveVia, moreAction } from "./helpers";

const PLAN =
  "# Plan: pagination\n\n| Step | File |\n| --- | --- |\n| 1 | src/server.ts |\n\n- [ ] add `?page=`\n- [ ] add a test\n\n```ts\nexport function page(n: number) {}\n```\n";

test("no serious or critical axe violations on the home page and the session page (composer, decision card, permission card)", async ({
  page,
  request,
}) => {
  await page.goto("/");
  await expectAxeClean(page);

  const asking = await scripted(request, [call("bash", { command: "touch x.txt" })], {
    mode: "default",
    title: "Asking",
  });
  await say(request, asking, "go");
  await waitForStatus(request, asking, "awaiting_permission");
  await page.goto(`/sessions/${asking}`);
  await expect(page.getByTestId("permission-card")).toBeVisible();
  await expectAxeClean(page);

  const reviewing = await scripted(request, [exitPlan(PLAN)], { title: "Reviewing" });
  await say(request, reviewing, "plan it");
  await waitForStatus(request, reviewing, "awaiting_review");
  await page.goto(`/sessions/${reviewing}`);
  await expect(page.getByTestId("decision-card")).toBeVisible();
  await expectAxeClean(page);
  await moreAction(page, "chat-about-it");
  // Set aside waits a few seconds for an Undo before it is sent.
  await expect(page.getByTestId("set-aside-pending")).toBeVisible();
  await expectAxeClean(page);
  await expect(page.getByTestId("composer")).toBeVisible({ timeout: 15_000 });
  await expectAxeClean(page);
});

test("the decision card is usable at 390 px: no sideways scrolling, every button reachable, Approve works", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const id = await scripted(request, [
    exitPlan(PLAN),
    call("write", { path: "PHONE.md", content: "x\n" }),
    { text: "Approved from a phone." },
  ]);
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");
  await page.goto(`/sessions/${id}`);
  const card = page.getByTestId("decision-card");
  await expect(card).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const inReach = async (testIds: string[]) => {
    for (const testId of testIds) {
      const box = await card.getByTestId(testId).boundingBox();
      expect(box, testId).not.toBeNull();
      expect(box!.x, testId).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, testId).toBeLessThanOrEqual(390);
      expect(box!.y, testId).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, testId).toBeLessThanOrEqual(844);
      expect(box!.height, testId).toBeGreaterThanOrEqual(44);
    }
  };
  // The action row is a bottom sheet on a phone: in reach without scrolling, whatever the length of the plan.
  await expect(card.getByTestId("decision-actions")).toHaveAttribute("data-sheet", "yes");
  await inReach(["approve", "approve-options", "keep-planning", "more-actions"]);
  await card.getByTestId("approve-options").click();
  await inReach(["approve-accept-edits", "approve-review-edits"]);
  await page.keyboard.press("Escape");
  await card.getByTestId("more-actions").click();
  await inReach(["edit-plan", "chat-about-it"]);
  await page.keyboard.press("Escape");
  await page.screenshot({ path: "e2e/screenshots/decision-card-phone.png", fullPage: true });
  await approveVia(card, "approve-accept-edits");
  await expect(page.getByTestId("timeline")).toContainText("Approved from a phone.", { timeout: 15_000 });
});

test("an unknown address gets a not-found page whose scripts run under the CSP (it hydrates, shortcuts work)", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/.test(m.text())) errors.push(m.text());
  });
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.keyboard.press("?");
  await expect(page.getByTestId("shortcuts-help")).toBeVisible();
  expect(errors).toEqual([]);
});
