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

test("the pages are an installable app: a valid manifest, icons and an active service worker", async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto("/desk");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  // The service worker that shows pushed notices is registered and active for the whole origin.
  const worker = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { scope: registration.scope, script: registration.active?.scriptURL ?? "" };
  });
  expect(worker).toEqual({ scope: `${baseURL}/`, script: `${baseURL}/sw.js` });
  const cdp = await page.context().newCDPSession(page);
  const manifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[]; data?: string };
  expect(manifest.url).toBe(`${baseURL}/manifest.webmanifest`);
  expect(manifest.errors).toEqual([]);
  const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
    installabilityErrors: { errorId: string }[];
  };
  // Playwright's contexts are off the record, where nothing installs; that is the only reason Chromium may give.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);

  // A browser fetches the manifest and icons without cookies: they answer signed out, and say nothing private.
  const anyone = await browser.newContext({ baseURL: baseURL ?? "", extraHTTPHeaders: {} });
  const res = await anyone.request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { start_url: string; display: string; icons: { src: string }[] };
  expect([body.start_url, body.display]).toEqual(["/desk", "standalone"]);
  for (const icon of body.icons) {
    const got = await anyone.request.get(icon.src);
    expect([got.status(), got.headers()["content-type"]]).toEqual([200, "image/png"]);
  }
  expect((await anyone.request.get("/sw.js")).status()).toBe(200);
  expect(
    new URL((await anyone.request.get("/desk", { maxRedirects: 0 })).headers().location ?? "", baseURL).pathname,
  ).toBe("/sign-in");
  await anyone.close();
});
