import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { call, eventsOf, exitPlan, say, scripted, stateOf, waitForStatus } from "./helpers";

const WRITE = call("write", { path: "DESK.md", content: "desk\n" });

/** A session in `from` mode that enters plan mode with /plan and submits a plan for review. */
async function reviewFrom(request: Parameters<typeof scripted>[0], from: string, plan = "# Plan\n\n1. write DESK.md\n") {
  const id = await scripted(request, [exitPlan(plan), WRITE, { text: "Desk done." }], { mode: from });
  await say(request, id, "/plan write the desk file");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

async function card(page: Page, id: string) {
  await page.goto(`/sessions/${id}`);
  const c = page.getByTestId("decision-card");
  await expect(c).toBeVisible();
  return c;
}

for (const width of [1280, 390]) {
  test.describe(`review desk at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("decisions are never recorded by accident: Ctrl+Enter in the feedback box sends feedback, Esc decides nothing, 3 opens the box", async ({ page, request }) => {
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
      await page.keyboard.press("Escape");
      await expect.poll(async () => (await stateOf(request, id)).status).toBe("awaiting_review");
      await box.press("Control+Enter");
      await expect(c.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
      const answered = (await eventsOf(request, id)).filter((e) => e.type === "review.answered").map((e) => [e.payload.decision, e.payload.feedback]);
      expect(answered).toEqual([["reject", "Add step b."]]);
    });

    test("number keys pick the options shown on the buttons; the default follows the mode plan mode was entered from", async ({ page, request }) => {
      const fromDefault = await reviewFrom(request, "default");
      let c = await card(page, fromDefault);
      await expect(c.getByTestId("approve-review-edits")).toHaveAttribute("data-default", "true");
      await expect(c.getByTestId("approve-accept-edits")).toContainText("1");
      await expect(c.getByTestId("approve-review-edits")).toContainText("2");
      await expect(c.getByTestId("keep-planning")).toContainText("3");
      await page.keyboard.press("1");
      await expect(page.getByTestId("timeline")).toContainText("Desk done.", { timeout: 15_000 });
      await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "acceptEdits");

      const fromAccept = await reviewFrom(request, "acceptEdits");
      c = await card(page, fromAccept);
      await expect(c.getByTestId("approve-accept-edits")).toHaveAttribute("data-default", "true");
      await page.keyboard.press("2");
      await expect(page.getByTestId("permission-card")).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "default");
    });

    test("a waiting review takes the focus, counts in the tab title, keeps its actions in reach and is axe clean", async ({ page, request }) => {
      const id = await reviewFrom(request, "default", `# Plan\n\n${Array.from({ length: 80 }, (_, i) => `${i + 1}. step ${i + 1}`).join("\n")}\n`);
      const c = await card(page, id);
      await expect(c).toBeFocused();
      await expect(page).toHaveTitle("(1) Plan awaiting review · Plangate");
      // The action bar stays on screen on a long plan, and its buttons are at least 44 px tall.
      const bar = c.getByTestId("decision-actions");
      await expect(bar).toBeInViewport();
      for (const id of ["approve-accept-edits", "approve-review-edits", "keep-planning", "edit-plan", "chat-about-it"]) {
        expect((await c.getByTestId(id).boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      }
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/review-desk-${width}.png` });
    });

    test("another tab deciding first shows the decision in place of the card and keeps the unsent feedback", async ({ page, browser, request }) => {
      const id = await reviewFrom(request, "default");
      const c = await card(page, id);
      await c.getByTestId("keep-planning").click();
      await c.getByTestId("plan-feedback").fill("Not sent: please rename the file.");
      const other = await browser.newPage();
      await other.goto(page.url());
      await other.getByTestId("approve-accept-edits").click();
      await expect(page.getByTestId("decided-elsewhere")).toContainText("Decided in another tab: Approved", { timeout: 15_000 });
      await expect(page.getByTestId("unsent-feedback")).toHaveValue("Not sent: please rename the file.");
      await other.close();
    });
  });
}

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

test("Shift+Tab never reaches auto or bypass; the mode menu offers them with a warning", async ({ page, request }) => {
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
});

test("a connection-lost banner appears when the live stream drops and clears when it is back", async ({ page, request }) => {
  const id = await scripted(request, [], { mode: "default" });
  // The stream fails as a dropped network would (EventSource then keeps retrying on its own).
  await page.route("**/stream**", (route) => route.abort("connectionreset"));
  await page.goto(`/sessions/${id}`);
  await expect(page.getByTestId("connection-lost")).toBeVisible({ timeout: 15_000 });
  await page.unroute("**/stream**");
  await expect(page.getByTestId("connection-lost")).toBeHidden({ timeout: 20_000 });
});
