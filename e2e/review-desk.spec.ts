import { expect, test } from "@playwright/test";
import { expectAxeClean } from "./axe";
import { eventsOf, exitPlan, say, scripted, stateOf, waitForStatus, approveVia } from "./helpers";
import { card, hiddenTabContext, reviewFrom, shownNotifications } from "./desk-helpers";

for (const width of [1280, 390]) {
  test.describe(`review desk at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("decisions are never recorded by accident: Ctrl+Enter in the feedback box sends feedback, Esc decides nothing, 3 opens the box", async ({
      page,
      request,
    }) => {
      const id = await scripted(request, [exitPlan("# Plan\n\n1. a\n"), exitPlan("# Plan\n\n1. a\n2. b\n")]);
      await say(request, id, "plan");
      await waitForStatus(request, id, "awaiting_review");
      const c = await card(page, id);
      // The new card has the focus, so its keys work at once; 3 opens the feedback box (the key is not typed into it).
      await expect(c).toBeFocused();
      await page.keyboard.press("3");
      const box = c.getByTestId("plan-feedback");
      await expect(box).toBeFocused();
      await expect(box).toHaveValue("");
      await box.fill("Add step b.");
      // Esc closes the box and keeps what was typed; it decides nothing.
      await page.keyboard.press("Escape");
      await expect(box).toHaveCount(0);
      await expect(c.getByTestId("note-kept")).toBeVisible();
      await expect(c.getByTestId("approve")).toContainText("with your note");
      expect((await stateOf(request, id)).status).toBe("awaiting_review");
      await expect(c).toBeFocused();
      await page.keyboard.press("3");
      await expect(box).toHaveValue("Add step b.");
      await box.press("Control+Enter");
      await expect(c.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
      const answered = (await eventsOf(request, id))
        .filter((e) => e.type === "review.answered")
        .map((e) => [e.payload.decision, e.payload.feedback]);
      expect(answered).toEqual([["reject", "Add step b."]]);
    });

    test("number keys pick the options shown on the buttons; the default follows the mode plan mode was entered from", async ({
      page,
      request,
    }) => {
      const fromDefault = await reviewFrom(request, "default");
      let c = await card(page, fromDefault);
      await expect(c.getByTestId("approve")).toHaveAttribute("data-continuation", "default");
      await expect(c.getByTestId("keep-planning")).toContainText("3");
      // 1 would approve into more than the mode before plan mode: one stroke only opens the Approve menu on it,
      // where the keys are shown beside the ways they pick, and Enter approves. Keys act only where the focus is:
      // the card takes it once the page is live.
      await expect(c).toBeFocused();
      await page.keyboard.press("1");
      await expect(c.getByTestId("approve-accept-edits")).toBeFocused();
      await expect(c.getByTestId("approve-accept-edits")).toContainText("1");
      await expect(c.getByTestId("approve-review-edits")).toContainText("2");
      await expect(c.getByTestId("approve-review-edits")).toHaveAttribute("data-default", "true");
      expect((await stateOf(request, fromDefault)).status).toBe("awaiting_review");
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("timeline")).toContainText("Desk done.", { timeout: 15_000 });
      await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "acceptEdits");

      const fromAccept = await reviewFrom(request, "acceptEdits");
      c = await card(page, fromAccept);
      await expect(c.getByTestId("approve")).toHaveAttribute("data-continuation", "acceptEdits");
      await expect(c).toBeFocused();
      await page.keyboard.press("2");
      await expect(page.getByTestId("permission-card")).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "default");
    });

    test("a waiting review takes the focus, counts in the tab title, keeps its actions in reach and is axe clean", async ({
      page,
      request,
    }) => {
      const id = await reviewFrom(
        request,
        "default",
        `# Plan\n\n${Array.from({ length: 80 }, (_, i) => `${i + 1}. step ${i + 1}`).join("\n")}\n`,
      );
      const c = await card(page, id);
      await expect(c).toBeFocused();
      await expect(page).toHaveTitle("(1) Plan awaiting review · Plangate");
      // The action bar stays on screen on a long plan, and its buttons are at least 44 px tall.
      const bar = c.getByTestId("decision-actions");
      await expect(bar).toBeInViewport();
      const tall = async (ids: string[]) => {
        for (const id of ids) expect((await c.getByTestId(id).boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      };
      await tall(["approve", "approve-options", "keep-planning", "more-actions"]);
      await c.getByTestId("approve-options").click();
      await tall(["approve-accept-edits", "approve-review-edits"]);
      await page.keyboard.press("Escape");
      await c.getByTestId("more-actions").click();
      await tall(["edit-plan", "chat-about-it"]);
      await page.keyboard.press("Escape");
      await expectAxeClean(page);
      await page.screenshot({ path: `e2e/screenshots/review-desk-${width}.png` });
    });

    test("another tab deciding first shows the decision in place of the card and keeps the unsent feedback", async ({
      page,
      browser,
      request,
    }) => {
      const id = await reviewFrom(request, "default");
      const c = await card(page, id);
      await c.getByTestId("keep-planning").click();
      await c.getByTestId("plan-feedback").fill("Not sent: please rename the file.");
      const other = await browser.newPage();
      await other.goto(page.url());
      await approveVia(other, "approve-accept-edits");
      await expect(page.getByTestId("decided-elsewhere")).toContainText("Decided in another tab: Approved", {
        timeout: 15_000,
      });
      await expect(page.getByTestId("unsent-feedback")).toHaveValue("Not sent: please rename the file.");
      await other.close();
    });
  });
}

test("the model's text shows as it streams, then becomes the message", async ({ page, request }) => {
  const words = Array.from({ length: 20 }, (_, i) => `word${i}`).join(" ");
  const id = await scripted(request, [{ text: words, streamDelayMs: 150 }], { mode: "default" });
  await page.goto(`/sessions/${id}`);
  await expect(page.getByTestId("composer")).toBeVisible();
  await say(request, id, "say something slowly");
  const streaming = page.getByTestId("streaming-text");
  await expect(streaming).toContainText("word0", { timeout: 10_000 });
  // Part of the text is on the page before the model has finished.
  await expect(streaming).not.toContainText("word19");
  await expect(page.getByTestId("timeline")).toContainText("word19", { timeout: 15_000 });
  await expect(streaming).toHaveCount(0);
});

test("a teammate's plan that arrives while the mailbox tab is hidden notifies (once notifications are allowed)", async ({
  browser,
  request,
  baseURL,
}) => {
  const lead = await scripted(request, [], { mode: "plan", title: "Lead in plan mode" });
  const team = await request.post("/api/teams", { data: { sessionId: lead } });
  const teamId = ((await team.json()) as { team: { id: string } }).team.id;
  const context = await hiddenTabContext(browser, baseURL);
  const mailbox = await context.newPage();
  await mailbox.goto(`/team/${teamId}`);
  await expect(mailbox.getByTestId("no-pending")).toBeVisible();
  const res = await request.post(`/api/teams/${teamId}/teammates`, {
    data: { name: "dora", task: "plan", requirePlanApproval: true, script: [exitPlan("# Dora\n\n1. x\n")] },
  });
  expect(res.status()).toBe(201);
  await expect
    .poll(() => shownNotifications(mailbox), { timeout: 15_000 })
    .toEqual(["A teammate's plan is waiting for your approval | Team mailbox"]);
  await context.close();
});
