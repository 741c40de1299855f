import path from "node:path";
import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { createPerson } from "../lib/db/people/people";
import { TEST_PASSWORD } from "../tests/helpers/people";
import { exitPlan, pendingReviewOf, say, scripted, waitForStatus } from "./helpers";

// Issue 46: a notice's link is never a credential. It opens the desk item only after the person signs in as
// themselves, and lands on that item; on /account they choose what email carries, and the choice is kept.
const db = createDb("file:./data/e2e/plangate.db");
const NED = "ned-notices@example.com";

test.beforeAll(async () => {
  await createPerson(db, {
    email: NED,
    name: "Ned Notices",
    password: TEST_PASSWORD,
    memberships: [{ root: path.resolve("data/e2e/workspaces"), role: "reviewer" }],
  });
});
test.afterAll(async () => {
  await db.user.deleteMany({ where: { email: NED } });
});

test("a notice's link asks for the person's own sign-in, then opens the item; their choices are kept", async ({
  browser,
  baseURL,
  request,
}) => {
  const id = await scripted(request, [exitPlan("# Plan: notices\n\n1. Change src/app.ts\n")], { title: "Notice link" });
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");
  const reviewId = await pendingReviewOf(request, id);

  // What the email links to, opened in a browser that is signed in as nobody.
  const context = await browser.newContext({ baseURL: baseURL ?? "", extraHTTPHeaders: {} });
  const page = await context.newPage();
  await page.goto(`/desk?item=${reviewId}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page.getByTestId("decision-card")).toHaveCount(0);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("credentials-email").fill(NED);
  await page.getByTestId("credentials-password").fill(TEST_PASSWORD);
  await page.getByTestId("credentials-submit").click();
  await expect(page).toHaveURL(new RegExp(`/desk\\?item=${reviewId}$`));
  await expect(page.getByTestId("decision-card")).toBeVisible();

  await page.goto("/account");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const choices = page.getByTestId("notification-choices");
  await expect(choices.getByTestId("email-on")).toBeChecked();
  await expect(page.getByTestId("email-unavailable")).toBeVisible();
  await choices.getByTestId("event-reminder").uncheck();
  await choices.getByTestId("save-notifications").click();
  await expect(page.getByTestId("notifications-said")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByTestId("event-reminder")).not.toBeChecked();
  await expect(page.getByTestId("event-waiting")).toBeChecked();
  await expect(page.getByTestId("no-notices")).toBeVisible();
  await context.close();
});
