import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/free-port";
import { freshDb, type TestDb } from "../../tests/helpers/db";
import { type RunningProvider, startOidcProvider } from "../../tests/helpers/oidc-provider";
import { SSO_CALLBACK_PATH, SSO_START_PATH } from "./rules/sso";
import { resetEnvCache } from "../env";
import { kysely } from "../db/client";
import { authFor } from "./better-auth";
import { createPerson, deactivatePerson, findPerson } from "../db/people/people";
import { ssoStartRequest } from "./sso-plugins";
import { authForSsoStart } from "./sso-start";

// The whole OpenID Connect flow without a browser, on both engines: better-auth's handler (with the narrowed
// start) against a real oidc-provider on loopback, the browser's cookies and redirects carried by hand.
const BASE = "http://localhost:3000";
const CLIENT = { clientId: "plangate-test", clientSecret: "plangate-test-client-secret-0123" };
let provider: RunningProvider;
let t: TestDb;

beforeAll(async () => {
  provider = await startOidcProvider({
    issuer: `http://127.0.0.1:${await freePort()}`,
    ...CLIENT,
    redirectUris: [`${BASE}${SSO_CALLBACK_PATH}`],
  });
});
afterAll(async () => {
  await provider.close();
});
beforeEach(() => {
  t = freshDb();
  process.env.PLANGATE_DATA_DIR = t.dir;
  process.env.PLANGATE_OIDC_ISSUER = provider.issuer;
  process.env.PLANGATE_OIDC_CLIENT_ID = CLIENT.clientId;
  process.env.PLANGATE_OIDC_CLIENT_SECRET = CLIENT.clientSecret;
  resetEnvCache();
});
afterEach(async () => {
  for (const name of ["PLANGATE_OIDC_ISSUER", "PLANGATE_OIDC_CLIENT_ID", "PLANGATE_OIDC_CLIENT_SECRET"])
    delete process.env[name];
  resetEnvCache();
  await t.close();
});

/** A browser's cookies for one origin: what Set-Cookie gave, sent back as Cookie. */
class Jar {
  private readonly values = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      this.values.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  header(): string {
    return [...this.values].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

function location(res: Response, base: string): string {
  const to = res.headers.get("location");
  if (!to) throw new Error(`no redirect (${res.status}): ${res.url}`);
  return new URL(to, base).toString();
}

/** The button's request, as the route hands it to better-auth (narrowed, on an instance that has the provider). */
async function startSignIn(next: string): Promise<Response> {
  const request = new Request(`${BASE}${SSO_START_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE },
    body: JSON.stringify({ provider: "oidc", callbackURL: next, errorCallbackURL: "/sign-in" }),
  });
  return (await authForSsoStart(t.db)).handler(await ssoStartRequest(request));
}

/** Button → provider login as `login` → callback; the callback's answer (a redirect) and Plangate's cookies. */
async function signIn(login: string, next = "/sessions/s1"): Promise<{ res: Response; jar: Jar }> {
  const jar = new Jar();
  const start = await startSignIn(next);
  expect(start.status).toBe(200);
  jar.take(start);
  const idp = new Jar();
  let url = ((await start.json()) as { url: string }).url;
  // The provider's own redirects: authorization → its login page → (login posted) → back to authorization.
  for (let hop = 0; hop < 10 && new URL(url).origin === provider.issuer; hop++) {
    const uid = /\/interaction\/([^/?]+)$/.exec(new URL(url).pathname)?.[1];
    const res = uid
      ? await fetch(url, {
          method: "POST",
          redirect: "manual",
          headers: { cookie: idp.header(), "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ prompt: "login", login, password: "any" }),
        })
      : await fetch(url, { redirect: "manual", headers: { cookie: idp.header() } });
    idp.take(res);
    url = location(res, url);
  }
  expect(url.startsWith(`${BASE}${SSO_CALLBACK_PATH}?`)).toBe(true);
  const res = await authFor(t.db).handler(new Request(url, { headers: { cookie: jar.header() } }));
  jar.take(res);
  return { res, jar };
}

async function oidcAccounts(userId: string): Promise<string[]> {
  const rows = await kysely(t.db)
    .selectFrom("AuthAccount")
    .select("accountId")
    .where("userId", "=", userId)
    .where("providerId", "=", "oidc")
    .execute();
  return rows.map((r) => r.accountId);
}

describe("single sign-on against a real OpenID provider", () => {
  it("links a person an owner added by their verified email and signs them in to the page asked for", async () => {
    const grace = await createPerson(t.db, { email: "grace@example.com", name: "Grace Hopper", memberships: [] });
    const { res, jar } = await signIn("grace");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/sessions/s1");
    const session = await authFor(t.db).api.getSession({ headers: new Headers({ cookie: jar.header() }) });
    expect(session?.user.id).toBe(grace.id);
    // The owner's spelling of the name stays; the provider's subject is the link.
    expect(session?.user.name).toBe("Grace Hopper");
    expect(await oidcAccounts(grace.id)).toEqual(["idp-grace"]);
    // Signing in again finds the link rather than making another.
    expect((await signIn("grace")).res.headers.get("location")).toBe("/sessions/s1");
    expect(await oidcAccounts(grace.id)).toEqual(["idp-grace"]);
  });

  it("refuses an email no owner added, and makes no account for it", async () => {
    const { res, jar } = await signIn("eve");
    expect(res.headers.get("location")).toBe("/sign-in?error=signup_disabled");
    expect(await findPerson(t.db, { email: "eve@example.com" })).toBeNull();
    expect(await authFor(t.db).api.getSession({ headers: new Headers({ cookie: jar.header() }) })).toBeNull();
  });

  it("does not link an email the provider does not verify to the person who has it", async () => {
    const carol = await createPerson(t.db, { email: "carol@example.com", name: "Carol", memberships: [] });
    const { res } = await signIn("mallory");
    expect(res.headers.get("location")).toBe("/sign-in?error=unable_to_get_user_info");
    expect(await oidcAccounts(carol.id)).toEqual([]);
  });

  it("keeps a deactivated person out, before and after their account was linked", async () => {
    const dora = await createPerson(t.db, { email: "dora@example.com", name: "Dora", memberships: [] });
    await deactivatePerson(t.db, dora.id);
    expect((await signIn("dora")).res.headers.get("location")).toMatch(/^\/sign-in\?error=account_deactivated/i);
    expect(await oidcAccounts(dora.id)).toEqual([]);

    const grace = await createPerson(t.db, { email: "grace@example.com", name: "Grace", memberships: [] });
    expect((await signIn("grace")).res.status).toBe(302);
    await deactivatePerson(t.db, grace.id);
    const { res, jar } = await signIn("grace");
    expect(res.headers.get("location")).toMatch(/^\/sign-in\?error=account_deactivated/i);
    expect(await authFor(t.db).api.getSession({ headers: new Headers({ cookie: jar.header() }) })).toBeNull();
    const sessions = await kysely(t.db).selectFrom("AuthSession").select("id").where("userId", "=", grace.id).execute();
    expect(sessions).toEqual([]);
  });

  it("asks for the discovery document again when the provider was down at first use", async () => {
    const port = await freePort();
    process.env.PLANGATE_OIDC_ISSUER = `http://127.0.0.1:${port}`;
    resetEnvCache();
    expect((await startSignIn("/")).status).toBe(404);
    const late = await startOidcProvider({
      issuer: `http://127.0.0.1:${port}`,
      ...CLIENT,
      redirectUris: [`${BASE}${SSO_CALLBACK_PATH}`],
    });
    try {
      const start = await startSignIn("/");
      expect(start.status).toBe(200);
      expect(new URL(((await start.json()) as { url: string }).url).origin).toBe(late.issuer);
    } finally {
      await late.close();
    }
  });
});
