import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import {
  eventsOf,
  exitPlan,
  exitResults,
  say,
  scripted,
  stateOf,
  waitForStatus,
  approveVia,
  moreAction,
  blockAt,
  openDecisionCard,
} from "./helpers";

// Issue 28: the card decides only what a person meant. Each case presses or clicks what used to decide by accident
// (or lose words), then makes one deliberate decision: the review's answers show it was the only one.
async function waitingPlan(request: APIRequestContext) {
  const id = await scripted(request, [exitPlan("# Plan\n\n1. write KEYS.md\n"), { text: "Keys done." }], {
    mode: "default",
  });
  await say(request, id, "/plan write the keys file");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

const answers = async (request: APIRequestContext, id: string) =>
  (await eventsOf(request, id)).filter((e) => e.type === "review.answered").map((e) => e.payload.decision);

test("keys pressed with the focus on the page body decide nothing", async ({ page, request }) => {
  const id = await waitingPlan(request);
  const card = await openDecisionCard(page, id);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(page.locator("body")).toBeFocused();
  for (const key of ["1", "2", "3", "Control+Enter", "Meta+Enter"]) await page.keyboard.press(key);
  await expect(card.getByTestId("plan-feedback")).toHaveCount(0);
  await approveVia(card, "approve-review-edits");
  await waitForStatus(request, id, "idle");
  // The click was the only decision: no key pressed on the body approved into auto-accept before it.
  expect(await answers(request, id)).toEqual(["approve"]);
  expect((await stateOf(request, id)).mode).toBe("default");
});

test("feedback typed and then Approve reaches the agent as notes; the card says so before the click", async ({
  page,
  request,
}) => {
  const id = await waitingPlan(request);
  const card = await openDecisionCard(page, id);
  await card.getByTestId("keep-planning").click();
  await card.getByTestId("plan-feedback").fill("Keep the file under 10 lines.");
  await expect(card.getByTestId("approve")).toContainText("with your note");
  await card.getByTestId("approve").click();
  await waitForStatus(request, id, "idle");
  const [result] = await exitResults(request, id);
  expect(result?.output).toContain("Notes from the reviewer");
  expect(result?.output).toContain("Keep the file under 10 lines.");
});

test("Set aside waits five seconds with Undo: undone, the review still waits and a later decision is the only one", async ({
  page,
  request,
}) => {
  await page.clock.install();
  const id = await waitingPlan(request);
  const card = await openDecisionCard(page, id);
  await moreAction(card, "chat-about-it");
  await expect(card.getByTestId("set-aside-pending")).toBeVisible();
  await card.getByTestId("undo-set-aside").click();
  await page.clock.runFor(6000);
  await expect(card.getByTestId("more-actions")).toBeVisible();
  await approveVia(card, "approve-review-edits");
  await waitForStatus(request, id, "idle");
  expect(await answers(request, id)).toEqual(["approve"]);

  // Not undone, it is sent when the time is up.
  const other = await waitingPlan(request);
  const second = await openDecisionCard(page, other);
  await moreAction(second, "chat-about-it");
  await page.clock.runFor(6000);
  await waitForStatus(request, other, "idle");
  expect(await answers(request, other)).toEqual(["abandon"]);
});

/** Whether the element at the centre of `testId`'s box is that box itself: nothing (the action bar) covers it. */
const uncovered = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
  });

for (const width of [1280, 390]) {
  test(`at ${width} px the focused comment or feedback box is never under the action bar; a Shift+click range focuses the box`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    const plan = `# Plan\n\n${Array.from({ length: 60 }, (_, i) => `${i + 1}. step ${i + 1}`).join("\n")}\n`;
    const id = await scripted(request, [exitPlan(plan), { text: "ok" }], { mode: "default" });
    await say(request, id, "/plan a long one");
    await waitForStatus(request, id, "awaiting_review");
    const card = await openDecisionCard(page, id);
    await (await blockAt(card, 20)).getByTestId("comment-block").click();
    await (await blockAt(card, 24)).getByTestId("comment-block").click({ modifiers: ["Shift"] });
    const comment = card.getByTestId("line-comment");
    await expect(comment).toBeFocused();
    expect(await uncovered(page, "line-comment")).toBe(true);
    await page.keyboard.type("Why five steps?");
    await expect(comment).toHaveValue("Why five steps?");
    await card.getByTestId("add-comment").click();
    await card.getByTestId("keep-planning").click();
    const feedback = card.getByTestId("plan-feedback");
    await expect(feedback).toBeFocused();
    expect(await uncovered(page, "plan-feedback")).toBe(true);
    if (width === 390) await page.screenshot({ path: "e2e/screenshots/decision-card-boxes-390.png" });
  });
}
