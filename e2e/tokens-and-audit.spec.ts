import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { createPerson } from "../lib/db/people/people";

// Issue 26 in the browser, as people (no operator header on these contexts): an owner invites a reviewer from
// the People page and the invite link makes their account; the owner makes a token on the Tokens page (shown
// once, its last use shown, revoked: it stops at once); the Audit page lists each act and exports them.
const db = createDb("file:./data/e2e/plangate.db");
const PASSWORD = "owner password 42";

test("invite from People → the invitee joins; a token made, used, revoked; every act on the Audit page and in its CSV", async ({
  browser,
  baseURL,
}) => {
  const local = (baseURL ?? "").replace("127.0.0.1", "localhost");
  await createPerson(db, {
    email: "olive@example.com",
    name: "Olive Owner",
    password: PASSWORD,
    memberships: [{ root: "/", role: "owner" }],
  });
  const owner = await browser.newContext({ baseURL: local, extraHTTPHeaders: {} });
  const page = await owner.newPage();
  await page.goto("/sign-in?next=%2Fpeople");
  await page.getByTestId("credentials-email").fill("olive@example.com");
  await page.getByTestId("credentials-password").fill(PASSWORD);
  await page.getByTestId("credentials-submit").click();
  await expect(page).toHaveURL(`${local}/people`);
  // Typed before React hydrates the form, the email would be lost to its state: wait until the page answers.
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);

  await page.getByTestId("invite-email").fill("rosa@example.com");
  await page.getByTestId("invite-role").selectOption("reviewer");
  await page.getByTestId("invite-submit").click();
  const url = (await page.getByTestId("invite-url").textContent()) ?? "";
  expect(url).toMatch(/^http:\/\/localhost:\d+\/link\//);

  const guest = await browser.newContext({ extraHTTPHeaders: {} });
  const joining = await guest.newPage();
  await joining.goto(url);
  await expect(joining.getByTestId("link-invite")).toContainText("reviewer over / with the email rosa@example.com");
  await joining.getByTestId("credentials-name").fill("Rosa Reviewer");
  await joining.getByTestId("credentials-password").fill("rosa's own password");
  await joining.getByTestId("credentials-submit").click();
  // Signed in as themselves, on the sessions page.
  await expect(joining).toHaveURL(/^http:\/\/localhost:\d+\/$/);
  await expect(joining.getByTestId("credentials-form")).toHaveCount(0);
  await guest.close();
  await page.reload();
  await expect(page.getByTestId("person-rosa@example.com")).toContainText("reviewer over /");

  await page.getByTestId("nav-tokens").click();
  await page.getByTestId("token-name").fill("ci-bot");
  await page.getByTestId("token-scope").selectOption("reviewer");
  await page.getByTestId("token-submit").click();
  const secret = (await page.getByTestId("token-secret").textContent()) ?? "";
  expect(secret).toMatch(/^pgt_/);
  await page.reload();
  await expect(page.getByTestId("token-ci-bot")).toContainText("never");
  await expect(page.getByTestId("token-ci-bot")).not.toContainText(secret);
  const asBot = (await owner.request.get("/api/reviews", { headers: { authorization: `Bearer ${secret}` } })).status();
  expect(asBot).toBe(200);
  await page.reload();
  await expect(page.getByTestId("token-ci-bot")).not.toContainText("never");
  await page.getByTestId("revoke-ci-bot").click();
  await expect(page.getByTestId("token-ci-bot")).toContainText("revoked");
  const afterRevoke = await owner.request.get("/api/reviews", { headers: { authorization: `Bearer ${secret}` } });
  expect(afterRevoke.status()).toBe(401);

  await page.getByTestId("nav-audit").click();
  const table = page.getByTestId("audit-table");
  for (const kind of ["person.invited", "link.invite", "token.created", "token.revoked"])
    await expect(table).toContainText(kind);
  await page.getByTestId("audit-kind").fill("token.created");
  await page.getByTestId("audit-kind").press("Enter");
  await expect(page.getByTestId("audit-entry")).toHaveCount(1);
  await expect(page.getByTestId("audit-entry")).toContainText("Olive Owner");
  const href = (await page.getByTestId("audit-csv").getAttribute("href")) ?? "";
  const csv = await owner.request.get(href);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const text = await csv.text();
  expect(text).toContain("token.created");
  expect(text).not.toContain("token.revoked");
  await owner.close();
});
