import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  call,
  eventsOf,
  exitPlan,
  say,
  scripted,
  stateOf,
  waitForStatus,
  approveVia,
  moreAction,
  commentOn,
  openTools,
  openSession,
} from "./helpers";

const WRITE = call("write", { path: "DESK.md", content: "desk\n" });

/** A session in `from` mode that enters plan mode with /plan and submits a plan for review. */
async function reviewFrom(
  request: Parameters<typeof scripted>[0],
  from: string,
  plan = "# Plan\n\n1. write DESK.md\n",
) {
  const id = await scripted(request, [exitPlan(plan), WRITE, { text: "Desk done." }], { mode: from });
  await say(request, id, "/plan write the desk file");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

/** A browser context whose pages are hidden tabs with notifications allowed; each shown notification is recorded as "title | body". */
async function hiddenTabContext(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, permissions: ["notifications"] });
  await context.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { __shown: string[] }).__shown = shown;
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    const Real = window.Notification;
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(`${title} | ${options?.body ?? ""}`);
      }
    }
    Object.defineProperty(Recording, "permission", { get: () => Real.permission });
    window.Notification = Recording as typeof Notification;
  });
  return context;
}

const shownNotifications = (page: Page) => page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);

async function card(page: Page, id: string) {
  await openSession(page, id);
  const c = page.getByTestId("decision-card");
  await expect(c).toBeVisible();
  return c;
}

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
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
        [],
      );
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
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
      [],
    );
    await openTools(page);
    await page.getByTestId("session-history").locator("summary").first().click();
    await expect(page.getByTestId("history-comment")).toHaveCount(2);
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
