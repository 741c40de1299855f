import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { addPersonByScript, TEST_PASSWORD } from "../tests/helpers/people";

// Passkeys in Chromium with its virtual authenticator (CDP WebAuthn), as a person (no operator header): added
// with `npm run user -- add`, they sign in with their password, add a passkey on "Your account", sign out, and
// sign in again with the passkey alone, then remove it. On localhost: a passkey's site cannot be an IP address.
const SERVER_ENV = { DATABASE_URL: "file:./data/e2e/plangate.db", PLANGATE_DATA_DIR: "./data/e2e" };
const EMAIL = "grace@example.com";
const db = createDb(SERVER_ENV.DATABASE_URL);

// people.spec.ts completes the first start's setup link, which only works while nobody has an account: leave
// none behind (her sessions, password and passkeys go with her).
test.afterAll(async () => {
  await db.user.deleteMany({ where: { email: EMAIL } });
});

test("password sign-in → add a passkey → sign out → sign in with the passkey alone", async ({ browser, baseURL }) => {
  addPersonByScript(SERVER_ENV, EMAIL, "owner");
  const local = (baseURL ?? "").replace("127.0.0.1", "localhost");
  const person = await browser.newContext({ baseURL: local, extraHTTPHeaders: {} });
  const page = await person.newPage();
  const cdp = await person.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await page.goto("/sign-in");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("credentials-email").fill(EMAIL);
  await page.getByTestId("credentials-password").fill(TEST_PASSWORD);
  await page.getByTestId("credentials-submit").click();
  // Signing in lands on the desk.
  await expect(page).toHaveURL(`${local}/desk`);

  await page.getByTestId("nav-account").click();
  await expect(page.getByTestId("no-passkeys")).toBeVisible();
  // The button works once React has hydrated the page (a click before that would do nothing).
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("add-passkey").click();
  await expect(page.getByTestId("passkey-added")).toBeVisible();
  await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  // The authenticator holds one discoverable credential for localhost: sign-in needs no email to find it.
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ rpId: "localhost", isResidentCredential: true });

  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in/);

  await page.goto("/sign-in?next=%2Faccount");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("passkey-sign-in").click();
  await expect(page).toHaveURL(`${local}/account`);
  await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  await page.goto("/");
  await expect(page.getByTestId("nav-home")).toBeVisible();
  await expect(page).toHaveURL(`${local}/`);

  // A lost device: she removes the passkey, and it no longer signs anyone in (the authenticator still holds it).
  await page.goto("/account");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("remove-passkey").click();
  await page.getByTestId("remove-passkey-confirm").click();
  await expect(page.getByTestId("no-passkeys")).toBeVisible();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("passkey-sign-in").click();
  await expect(page.getByTestId("passkey-sign-in-error")).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in/);
  await person.close();
});

test("on 127.0.0.1 the sign-in page says to use localhost and offers no passkey", async ({ browser, baseURL }) => {
  const person = await browser.newContext({ baseURL, extraHTTPHeaders: {} });
  const page = await person.newPage();
  await page.goto("/sign-in");
  await expect(page.getByTestId("use-localhost")).toBeVisible();
  await expect(page.getByTestId("credentials-form")).toBeVisible();
  await expect(page.getByTestId("passkey-sign-in")).toHaveCount(0);
  await person.close();
});
