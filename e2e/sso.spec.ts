import { type Browser, expect, type Page, test } from "@playwright/test";
import { createDb, kysely } from "../lib/db/client";
import { createPerson, deactivatePerson, findPerson, membershipsOf } from "../lib/db/people/people";
import type { Role } from "../lib/auth/rules/rights";
import { e2eOidc } from "./operator";
import { exitPlan, say, scripted, waitForStatus, approveVia } from "./helpers";

// Single sign-on as the attack: a real OpenID provider (oidc-provider 8.8.1, e2e/oidc-server.ts) vouches for
// people, and only those an owner added, active, with an email the provider verified, come in.
const db = createDb("file:./data/e2e/plangate.db");
const { issuer } = e2eOidc(Number(process.env.E2E_PORT ?? 3100));

/** A person an owner added (no password: SSO is how they sign in), once per server. */
async function added(email: string, name: string, role: Role): Promise<string> {
  const found = await findPerson(db, { email });
  if (found) return found.id;
  return (await createPerson(db, { email, name, memberships: [{ root: "/", role }] })).id;
}

/** A browser that is a person (no operator header), on localhost as people.spec.ts uses. */
async function personPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({
    baseURL: (baseURL ?? "").replace("127.0.0.1", "localhost"),
    extraHTTPHeaders: {},
  });
  return context.newPage();
}

/** From Plangate's sign-in page through the provider's login as `login`, until the browser is back at Plangate. */
async function signInThroughProvider(page: Page, login: string): Promise<void> {
  await page.getByTestId("sso-sign-in").click();
  await page.waitForURL((url) => url.origin === issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password at the test provider");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.waitForURL((url) => url.origin !== issuer);
}

async function ssoAccountsOf(userId: string) {
  return kysely(db)
    .selectFrom("AuthAccount")
    .select(["providerId", "accountId"])
    .where("userId", "=", userId)
    .where("providerId", "=", "oidc")
    .execute();
}

async function sessionsOf(userId: string): Promise<number> {
  const rows = await kysely(db).selectFrom("AuthSession").select("id").where("userId", "=", userId).execute();
  return rows.length;
}

test("a person an owner added signs in through the provider, lands on the page asked for, and decides as themselves", async ({
  browser,
  request,
  baseURL,
}) => {
  const graceId = await added("grace@example.com", "Grace Hopper", "reviewer");
  const id = await scripted(request, [exitPlan("# Plan\n\n1. Write notes.md\n"), { text: "Done." }]);
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");

  const page = await personPage(browser, baseURL);
  await page.goto(`/sessions/${id}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page.getByTestId("sso-sign-in")).toHaveText("Sign in with Test IdP");
  await signInThroughProvider(page, "grace");

  // Back on the session asked for, signed in as Grace: her decision carries the name the owner gave her.
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await approveVia(page.getByTestId("decision-card"), "approve-accept-edits");
  await expect(page.getByTestId("timeline")).toContainText("by Grace Hopper", { timeout: 15_000 });
  await expect(page.getByTestId("timeline")).not.toContainText("Grace from the IdP");

  // Linked to the existing person by the provider's subject; her roles are the owner's, untouched.
  expect(await ssoAccountsOf(graceId)).toEqual([{ providerId: "oidc", accountId: "idp-grace" }]);
  expect(await membershipsOf(db, graceId)).toEqual([{ root: "/", role: "reviewer" }]);
  await page.context().close();

  // A second sign-in finds the linked account (no second link).
  const again = await personPage(browser, baseURL);
  await again.goto("/sign-in?next=%2F");
  await signInThroughProvider(again, "grace");
  await expect(again).toHaveURL(/\/$/);
  await expect(again.getByTestId("sign-out")).toBeVisible();
  expect(await ssoAccountsOf(graceId)).toHaveLength(1);
  await again.context().close();
});

test("an email the provider vouches for but no owner added is refused: no account, no role, no session", async ({
  browser,
  baseURL,
}) => {
  const page = await personPage(browser, baseURL);
  await page.goto("/sign-in?next=%2Fwebhooks");
  await signInThroughProvider(page, "eve");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fwebhooks&error=signup_disabled$/);
  await expect(page.getByTestId("sso-error")).toContainText("No Plangate account has that email");
  expect(await findPerson(db, { email: "eve@example.com" })).toBeNull();
  await page.goto("/webhooks");
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.context().close();
});

test("an email the provider does not verify does not link to the person who has it", async ({ browser, baseURL }) => {
  const carolId = await added("carol@example.com", "Carol", "member");
  const page = await personPage(browser, baseURL);
  await page.goto("/sign-in?next=%2F");
  await signInThroughProvider(page, "mallory");
  await expect(page).toHaveURL(/\/sign-in\?next=%2F&error=/);
  await expect(page.getByTestId("sso-error")).toContainText("did not confirm a verified email");
  expect(await ssoAccountsOf(carolId)).toEqual([]);
  expect(await sessionsOf(carolId)).toBe(0);
  await page.context().close();
});

test("a deactivated person does not get in through the provider", async ({ browser, baseURL }) => {
  const doraId = await added("dora@example.com", "Dora", "owner");
  await deactivatePerson(db, doraId);
  const page = await personPage(browser, baseURL);
  await page.goto("/sign-in?next=%2F");
  await signInThroughProvider(page, "dora");
  await expect(page).toHaveURL(/\/sign-in\?next=%2F&error=account_deactivated/);
  await expect(page.getByTestId("sso-error")).toContainText("deactivated");
  expect(await sessionsOf(doraId)).toBe(0);
  expect(await ssoAccountsOf(doraId)).toEqual([]);
  await page.context().close();
});

test("the start route takes only what the button sends: no ID-token sign-in, no sign-up request, no other route", async ({
  playwright,
  baseURL,
}) => {
  const anyone = await playwright.request.newContext({ baseURL, extraHTTPHeaders: {} });
  const start = (data: Record<string, unknown>) => anyone.post("/api/auth/sign-in/social", { data });
  expect((await start({ provider: "oidc", idToken: { token: "x.y.z" } })).status()).toBe(400);
  expect((await start({ provider: "oidc", callbackURL: "/", requestSignUp: true })).status()).toBe(400);
  expect((await start({ provider: "github", callbackURL: "/" })).status()).toBe(400);
  // What the button sends: the provider's authorization URL, with PKCE, a nonce and our callback.
  const ok = await start({ provider: "oidc", callbackURL: "https://evil.test/", errorCallbackURL: "/sign-in" });
  expect(ok.status()).toBe(200);
  const url = new URL(((await ok.json()) as { url: string }).url);
  expect(url.origin).toBe(issuer);
  expect(url.searchParams.get("code_challenge_method")).toBe("S256");
  expect(url.searchParams.get("nonce")).toBeTruthy();
  expect(url.searchParams.get("scope")?.split(" ").sort()).toEqual(["email", "openid", "profile"]);
  expect(url.searchParams.get("redirect_uri")).toMatch(/\/api\/auth\/callback\/oidc$/);
  // The OAuth routes better-auth has beside these stay closed.
  expect((await anyone.post("/api/auth/sign-in/oauth2", { data: { providerId: "oidc" } })).status()).toBe(404);
  expect((await anyone.post("/api/auth/link-social", { data: { provider: "oidc" } })).status()).toBe(404);
  await anyone.dispose();
});
