import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { createLink } from "../lib/db/people/links";
import { exitPlan, say, scripted, waitForStatus, approveVia } from "./helpers";

// Issue 26 in the browser, as a person (no operator header on this context): the first start's setup link makes
// the owner, who approves a plan and is named for it; sign-out ends the session, and sign-in starts one again.
const db = createDb("file:./data/e2e/plangate.db");
const PASSWORD = "correct horse battery";

test("setup link → owner account → a signed approval naming them → sign out → sign in with the password", async ({
  browser,
  request,
  baseURL,
}) => {
  // A passkey's site cannot be an IP address: people use localhost, as the setup link the server prints does.
  const local = (baseURL ?? "").replace("127.0.0.1", "localhost");
  // No operator header here (the config gives every context one): this browser is a person.
  const person = await browser.newContext({ baseURL: local, extraHTTPHeaders: {} });
  const page = await person.newPage();

  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);

  const { secret } = await createLink(db, { purpose: "setup", ttlMs: 60_000 });
  await page.goto(`/link/${secret}`);
  await page.getByTestId("credentials-name").fill("Ada Lovelace");
  await page.getByTestId("credentials-email").fill("ada@example.com");
  await page.getByTestId("credentials-password").fill(PASSWORD);
  await page.getByTestId("credentials-submit").click();
  await expect(page.getByTestId("nav-home")).toBeVisible();
  await expect(page).toHaveURL(`${local}/`);
  // The link worked once.
  await page.goto(`/link/${secret}`);
  await expect(page.getByTestId("link-closed")).toBeVisible();

  const id = await scripted(request, [exitPlan("# Plan\n\n1. Write notes.md\n"), { text: "Done." }]);
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");
  await page.goto(`/sessions/${id}`);
  await approveVia(page.getByTestId("decision-card"), "approve-accept-edits");
  await expect(page.getByTestId("timeline")).toContainText("by Ada Lovelace", { timeout: 15_000 });
  const history = (await (await request.get(`/api/sessions/${id}/history`)).json()) as {
    history: { plans: { decidedBy: string | null }[] };
  };
  expect(history.history.plans[0]?.decidedBy).toBe("Ada Lovelace");
  expect(await (await request.get(`/api/sessions/${id}/export?format=md`)).text()).toContain("by Ada Lovelace");

  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto(`/sessions/${id}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);

  await page.getByTestId("credentials-email").fill("ada@example.com");
  await page.getByTestId("credentials-password").fill("not the password");
  await page.getByTestId("credentials-submit").click();
  await expect(page.getByTestId("credentials-error")).toContainText("do not match");
  await expect(page.getByTestId("credentials-email")).toHaveValue("ada@example.com");
  await page.getByTestId("credentials-password").fill(PASSWORD);
  await page.getByTestId("credentials-submit").click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await expect(page.getByTestId("timeline")).toContainText("by Ada Lovelace");
  await person.close();
});
