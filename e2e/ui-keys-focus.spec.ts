import { expect, type APIRequestContext, test } from "@playwright/test";
import { blockAt, eventsOf, exitPlan, openDecisionCard, say, scripted, waitForStatus } from "./helpers";

// Issue 42, point 6: keys act where the focus is, and the focus stays useful.
async function waitingPlan(request: APIRequestContext) {
  const id = await scripted(request, [exitPlan("# Plan\n\nIntro words.\n\n1. write KEYS.md\n2. add a test\n")], {
    mode: "default",
  });
  await say(request, id, "/plan write the keys file");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

test("after Ctrl+Enter adds a comment the focus is on its new thread in the card, and the card's keys act at once", async ({
  page,
  request,
}) => {
  const id = await waitingPlan(request);
  const card = await openDecisionCard(page, id);
  await (await blockAt(card, 5)).getByTestId("comment-block").click();
  const box = card.getByTestId("line-comment");
  await expect(box).toBeFocused();
  await box.fill("Name the file in capitals.");
  await box.press("Control+Enter");

  // The comment is added and holds the focus, inside the card: not the page body.
  const added = card.getByTestId("pending-comment");
  await expect(added).toHaveCount(1);
  await expect(added).toContainText("Name the file in capitals.");
  await expect(added).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
  // Ctrl+Enter in the comment box only added the comment: nothing was decided.
  expect((await eventsOf(request, id)).filter((e) => e.type === "review.answered")).toHaveLength(0);

  // The card's own key works without a Tab back: 3 opens Request changes, and Ctrl+Enter there sends it.
  await page.keyboard.press("3");
  const feedback = card.getByTestId("plan-feedback");
  await expect(feedback).toBeFocused();
  await feedback.fill("See the comment.");
  await feedback.press("Control+Enter");
  await expect
    .poll(async () =>
      (await eventsOf(request, id)).filter((e) => e.type === "review.answered").map((e) => e.payload.decision),
    )
    .toEqual(["reject"]);
  const asked = (await eventsOf(request, id)).find((e) => e.type === "review.answered");
  expect(JSON.stringify(asked?.payload)).toContain("See the comment.");
});

for (const size of [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
]) {
  test(`the shortcuts dialog is centred at ${size.width}x${size.height} and lists every key, j and k included`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await page.goto("/desk");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("?");
    const dialog = page.getByTestId("shortcuts-help");
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    if (!box) throw new Error("the dialog has no box");
    const left = box.x;
    const right = size.width - (box.x + box.width);
    const top = box.y;
    const bottom = size.height - (box.y + box.height);
    expect(Math.abs(left - right), `left ${left}, right ${right}`).toBeLessThanOrEqual(2);
    expect(Math.abs(top - bottom), `top ${top}, bottom ${bottom}`).toBeLessThanOrEqual(2);
    expect(left).toBeGreaterThan(0);

    const rows = dialog.getByTestId("shortcut-row");
    const keys = (await rows.locator("th").allTextContents()).map((k) => k.trim());
    for (const key of ["?", "j / k", "1", "2", "3", "Ctrl/Cmd+Enter", "Esc", "o / a / r", "Enter", "Shift+Tab", "/"])
      expect(keys).toContain(key);
    await expect(rows.filter({ hasText: "j / k" })).toContainText("next / previous item");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });
}
