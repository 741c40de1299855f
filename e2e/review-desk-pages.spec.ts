// The review desk's pages at two widths (the desk itself: review-desk.spec.ts), and line comments on a plan from
// the card to History.
import { expect, test } from "@playwright/test";
import { expectAxeClean } from "./axe";
import { call, eventsOf, exitPlan, say, scripted, waitForStatus, moreAction, commentOn, openTools } from "./helpers";
import { card, hiddenTabContext, reviewFrom, shownNotifications } from "./desk-helpers";

for (const width of [1280, 390]) {
  test.describe(`the review desk's pages at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("? opens the list of shortcuts on every page, Esc closes it", async ({ page }) => {
      for (const url of ["/", "/?status=idle"]) {
        await page.goto(url);
        await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
        await page.keyboard.press("?");
        await expect(page.getByTestId("shortcuts-help")).toBeVisible();
        await expect(page.getByTestId("shortcuts-help")).toContainText("Never decides");
        await page.keyboard.press("Escape");
        await expect(page.getByTestId("shortcuts-help")).toBeHidden();
      }
    });

    test("Shift+Tab never reaches auto or bypass; the mode menu offers them with a warning", async ({
      page,
      request,
    }) => {
      const id = await scripted(request, [], { mode: "default" });
      await page.goto(`/sessions/${id}`);
      const input = page.getByTestId("composer-input");
      const chip = page.getByTestId("mode-chip");
      const seen: string[] = [];
      for (let i = 0; i < 4; i++) {
        await input.press("Shift+Tab");
        await expect(chip).not.toHaveAttribute("data-mode", seen.at(-1) ?? "default");
        seen.push((await chip.getAttribute("data-mode")) ?? "");
      }
      expect(seen).toEqual(["acceptEdits", "plan", "default", "acceptEdits"]);
      await page.getByTestId("mode-menu").locator("summary").click();
      await expect(page.getByTestId("mode-option-auto")).toContainText("answers every ask without you");
      // Esc closes the menu and chooses nothing.
      await page.getByTestId("mode-option-auto").press("Escape");
      await expect(page.getByTestId("mode-menu")).not.toHaveAttribute("open");
      await expect(chip).toHaveAttribute("data-mode", "acceptEdits");
    });

    test("a connection-lost banner appears when the live stream drops and clears when it is back", async ({
      page,
      request,
    }) => {
      const id = await scripted(request, [], { mode: "default" });
      // The stream fails as a dropped network would (EventSource then keeps retrying on its own).
      await page.route("**/stream**", (route) => route.abort("connectionreset"));
      await page.goto(`/sessions/${id}`);
      await expect(page.getByTestId("connection-lost")).toBeVisible({ timeout: 15_000 });
      await page.unroute("**/stream**");
      await expect(page.getByTestId("connection-lost")).toBeHidden({ timeout: 20_000 });
    });

    test("every decided version stays readable: the timeline entries open on the plan as it was", async ({
      page,
      request,
    }) => {
      const v1 = "# Plan\n\n1. first idea\n";
      const v2 = "# Plan\n\n1. second idea\n";
      const id = await scripted(request, [exitPlan(v1), exitPlan(v2), { text: "ok" }]);
      await say(request, id, "plan");
      await waitForStatus(request, id, "awaiting_review");
      let c = await card(page, id);
      await c.getByTestId("keep-planning").click();
      await c.getByTestId("plan-feedback").fill("Try again.");
      await c.getByTestId("send-feedback").click();
      c = page.getByTestId("decision-card");
      await expect(c.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
      await moreAction(c, "chat-about-it");
      await expect(page.getByTestId("composer")).toBeVisible({ timeout: 15_000 });
      const entries = page.getByTestId("plan-version-entry");
      await expect(entries).toHaveCount(2);
      await entries.nth(0).locator("summary").click();
      await expect(entries.nth(0).getByTestId("plan-version-markdown")).toContainText("first idea");
      await entries.nth(1).locator("summary").click();
      await expect(entries.nth(1).getByTestId("plan-version-markdown")).toContainText("second idea");
    });

    test("the mode names are words everywhere: no raw values reach the page", async ({ page, request }) => {
      const id = await reviewFrom(request, "acceptEdits");
      await page.goto(`/sessions/${id}`);
      const text = await page.locator("main").textContent();
      for (const raw of ["awaiting_review", "acceptEdits", "default →", "rev_", "prePlanMode"])
        expect(text).not.toContain(raw);
      await expect(page.getByTestId("timeline")).toContainText("Auto-accept edits → Plan");
    });

    test("a write that changes nothing says so on the permission card", async ({ page, request }) => {
      const id = await scripted(
        request,
        [
          call("write", { path: "SAME.md", content: "same\n" }),
          call("write", { path: "SAME.md", content: "same\n" }),
          { text: "ok" },
        ],
        { mode: "default" },
      );
      await say(request, id, "write");
      await waitForStatus(request, id, "awaiting_permission");
      await page.goto(`/sessions/${id}`);
      await page.getByTestId("allow-once").click();
      await expect(page.getByTestId("permission-unchanged")).toContainText("changes nothing", { timeout: 15_000 });
    });

    test("notifications: offered on the first review, and once allowed they fire for a review that arrives while the tab is hidden", async ({
      page,
      browser,
      request,
      baseURL,
    }) => {
      const first = await reviewFrom(request, "default");
      await card(page, first);
      await expect(page.getByTestId("notify-opt-in")).toBeVisible();

      const context = await hiddenTabContext(browser, baseURL);
      const hidden = await context.newPage();
      const id = await scripted(request, [exitPlan("# Plan\n\n1. x\n")], { mode: "plan", title: "Background review" });
      await hidden.goto(`/sessions/${id}`);
      await expect(hidden.getByTestId("composer")).toBeVisible();
      await say(request, id, "plan");
      await expect
        .poll(() => shownNotifications(hidden), { timeout: 15_000 })
        .toEqual(["A plan is awaiting your review | Background review"]);
      await context.close();
    });

    test("while a turn runs: a working indicator with elapsed time, and each tool call with its target, then its duration", async ({
      page,
      request,
    }) => {
      const id = await scripted(request, [call("bash", { command: "sleep 3" }), { text: "Slept." }], {
        mode: "default",
      });
      await page.goto(`/sessions/${id}`);
      await say(request, id, "wait a bit");
      await expect(page.getByTestId("working")).toContainText(/The agent is working… \d/, { timeout: 10_000 });
      const call0 = page.locator('[data-testid="timeline-item"][data-kind="tool"]').first();
      await expect(call0).toContainText("sleep 3", { timeout: 10_000 });
      await expect(call0.getByTestId("tool-elapsed")).toBeVisible();
      await expect(page.getByTestId("timeline")).toContainText("Slept.", { timeout: 15_000 });
      await expect(call0.getByTestId("tool-duration")).toHaveText(/^\d(\.\d)? s$/);
    });

    test("Go to event # says which numbers exist instead of doing nothing", async ({ page, request }) => {
      const id = await scripted(request, [{ text: "hi" }], { mode: "default" });
      await say(request, id, "hello");
      await waitForStatus(request, id, "idle");
      await page.goto(`/sessions/${id}`);
      await openTools(page);
      for (const bad of ["abc", "0", "9999"]) {
        await page.getByTestId("jump-to").fill(bad);
        await page.getByTestId("jump-to").press("Enter");
        await expect(page.getByTestId("jump-error")).toContainText("Give an event number from 1 to");
      }
      await page.getByTestId("jump-to").fill("1");
      await page.getByTestId("jump-to").press("Enter");
      await expect(page.getByTestId("jump-error")).toHaveCount(0);
      await expect(page.getByTestId("replay-panel")).toBeVisible();
    });
  });
}

for (const width of [1280, 390]) {
  test(`line comments at ${width} px: many comments make one review, the model reads them, v2 shows them outdated, History keeps them`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const v1 = "# Plan\n\n1. Add a cache\n2. Use Redis for it\n3. Write tests\n";
    const v2 = "# Plan\n\n1. Add a cache\n2. Use an in-memory map\n3. Write tests\n";
    const id = await scripted(request, [exitPlan(v1), exitPlan(v2), { text: "ok" }]);
    await say(request, id, "plan a cache");
    await waitForStatus(request, id, "awaiting_review");
    const c = await card(page, id);
    await commentOn(c, 4, 4, "No new infrastructure: keep it in memory.");
    await commentOn(c, 3, 5, "Say how the cache is invalidated.");
    await expect(c.getByTestId("pending-comment")).toHaveCount(2);
    await expect(c.getByTestId("pending-comment").nth(1)).toContainText(
      "on “Add a cache Use Redis for it Write tests”",
    );
    await page.screenshot({ path: `e2e/screenshots/decision-card-comments-${width}.png`, fullPage: true });
    await c.getByTestId("keep-planning").click();
    await c.getByTestId("plan-feedback").fill("Simpler, please.");
    await c.getByTestId("send-feedback").click();
    const next = page.getByTestId("decision-card");
    await expect(next.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
    // Both quote "2. Use Redis for it", which version 2 no longer has: outdated, shown with their quote.
    await expect(next.getByTestId("outdated-threads").getByTestId("thread")).toHaveCount(2);
    await expect(next.locator('[data-testid="thread"][data-status="outdated"]')).toHaveCount(2);
    const sentBack = (await eventsOf(request, id)).find(
      (e) => e.type === "tool.result" && e.payload.tool === "exit_plan_mode",
    );
    expect(String(sentBack?.payload.error)).toContain("Simpler, please.");
    expect(String(sentBack?.payload.error)).toContain("> 2. Use Redis for it");
    await expectAxeClean(page);
    await openTools(page);
    await page.getByTestId("session-history").locator("summary").first().click();
    await expect(page.getByTestId("history-comment")).toHaveCount(2);
  });
}
