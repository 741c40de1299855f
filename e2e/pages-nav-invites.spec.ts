import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { createPerson } from "../lib/db/people/people";
import { TEST_PASSWORD } from "../tests/helpers/people";
import { signedIn } from "./helpers";

// Issue 42, point 9: signed-out pages show no navigation; a role sees only the links it can use; an owner's
// invites are listed, copyable when made, and revocable (the link then refuses).
const db = createDb("file:./data/e2e/plangate.db");
const REVIEWER = "nav-reviewer@example.com";
const INVITED = "invited-e2e@example.com";
const ROOT = path.resolve("data/e2e/workspaces/nav-e2e");

test.beforeAll(async () => {
  fs.mkdirSync(ROOT, { recursive: true });
  await createPerson(db, {
    email: REVIEWER,
    name: "Rene Viewer",
    password: TEST_PASSWORD,
    memberships: [{ root: ROOT, role: "reviewer" }],
  });
});
test.afterAll(async () => {
  // Other specs share this server: people.spec needs an install with no account.
  await db.user.deleteMany({ where: { email: REVIEWER } });
  await db.oneTimeLink.deleteMany({ where: { email: INVITED } });
});

test("signed out: the sign-in and link pages show no navigation and no Sign out", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL: baseURL ?? "", extraHTTPHeaders: {} });
  const page = await context.newPage();
  for (const url of ["/sign-in", "/link/not-a-real-link"]) {
    await page.goto(url);
    const nav = page.getByTestId("main-nav");
    await expect(nav).toHaveAttribute("data-signed-in", "no");
    await expect(nav.getByRole("link")).toHaveCount(0);
    await expect(page.getByTestId("sign-out")).toHaveCount(0);
    await expect(nav).toContainText("Plangate");
  }
  await context.close();
});

test("a reviewer sees no People or Audit link; the operator does", async ({ browser, baseURL, page }) => {
  const { context, page: reviewer } = await signedIn(browser, baseURL ?? "", REVIEWER);
  const nav = reviewer.getByTestId("main-nav");
  await expect(nav.getByRole("link")).toHaveText(["Plangate", "Desk", "Webhooks", "Tokens", "Account"]);
  await expect(reviewer.getByTestId("sign-out")).toBeVisible();
  // Every link shown leads to a page that serves them, not to "Only an owner…".
  for (const href of ["/desk", "/webhooks", "/tokens", "/account"]) {
    await reviewer.goto(href);
    await expect(reviewer.locator("main")).not.toContainText("Only an owner");
  }
  await context.close();

  await page.goto("/desk");
  await expect(page.getByTestId("main-nav").getByRole("link")).toHaveText([
    "Plangate",
    "Desk",
    "Webhooks",
    "People",
    "Audit",
  ]);
});

test("an invite link is copied with one click, listed while pending, and refused once revoked", async ({
  browser,
  baseURL,
}) => {
  const owner = await browser.newContext({
    baseURL: baseURL ?? "",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = await owner.newPage();
  await page.goto("/people");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("invite-email").fill(INVITED);
  await page.getByTestId("invite-role").selectOption("reviewer");
  await page.getByTestId("invite-root").fill(ROOT);
  await page.getByTestId("invite-submit").click();
  const url = (await page.getByTestId("invite-url").textContent()) ?? "";
  expect(url).toMatch(/\/link\/[A-Za-z0-9_-]+$/);
  await page.getByTestId("invite-copy").click();
  await expect(page.getByTestId("invite-copy-status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // Listed (who, role, expiry), without the link itself.
  const row = page.getByTestId("pending-invite").filter({ hasText: INVITED });
  await expect(row).toContainText(`reviewer over ${ROOT}`);
  await expect(row).toContainText(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
  await expect(page.getByTestId("pending-invites")).not.toContainText(url.split("/link/")[1] ?? "-");

  await row.getByTestId("revoke-invite").click();
  await expect(page.getByTestId("pending-invite").filter({ hasText: INVITED })).toHaveCount(0);
  expect(await db.oneTimeLink.count({ where: { email: INVITED } })).toBe(0);
  const anyone = await browser.newContext({ extraHTTPHeaders: {} });
  const visitor = await anyone.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId("link-closed")).toBeVisible();
  await anyone.close();
  await owner.close();
});
