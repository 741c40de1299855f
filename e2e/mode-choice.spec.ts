import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { addPersonByScript, TEST_PASSWORD } from "../tests/helpers/people";
import { scripted, stateOf } from "./helpers";

// Issue 41 in the browser: a member works in plan and default modes. The mode menu offers them nothing else, and
// Shift+Tab in the composer cycles default → plan → default (acceptEdits, which answers asks, is a reviewer's).
const SERVER_ENV = { DATABASE_URL: "file:./data/e2e/plangate.db", PLANGATE_DATA_DIR: "./data/e2e" };
const db = createDb(SERVER_ENV.DATABASE_URL);
const MEMBER = "mia@example.com";

test.beforeAll(() => addPersonByScript(SERVER_ENV, MEMBER, "member"));
test.afterAll(async () => {
  // Other specs share this server: leave no account behind (people.spec needs an empty install).
  await db.user.deleteMany({ where: { email: MEMBER } });
  await db.$disconnect();
});

test("a member is offered plan and default only: the mode menu and Shift+Tab", async ({
  browser,
  request,
  baseURL,
}) => {
  const id = await scripted(request, [{ text: "Hello." }], { mode: "default" });
  const context = await browser.newContext({ baseURL: baseURL ?? "", extraHTTPHeaders: {} });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("credentials-email").fill(MEMBER);
  await page.getByTestId("credentials-password").fill(TEST_PASSWORD);
  await page.getByTestId("credentials-submit").click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));

  await page.goto(`/sessions/${id}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const chip = page.getByTestId("mode-chip");
  await expect(chip).toHaveAttribute("data-mode", "default");
  await chip.click();
  await expect(page.getByTestId("mode-menu")).toHaveAttribute("open");
  await expect(page.locator("[data-testid^='mode-option-']")).toHaveCount(2);
  await expect(page.getByTestId("mode-option-default")).toBeVisible();
  await expect(page.getByTestId("mode-option-plan")).toBeVisible();
  await page.keyboard.press("Escape");

  const input = page.getByTestId("composer-input");
  await input.press("Shift+Tab");
  await expect(chip).toHaveAttribute("data-mode", "plan");
  await page.getByTestId("plan-chip-exit").click();
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "default");
  await page.getByTestId("composer-input").press("Shift+Tab");
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan");
  expect((await stateOf(request, id)).mode).toBe("plan");
  await context.close();
});
