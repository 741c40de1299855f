import { afterEach, describe, expect, it } from "vitest";
import { GET, POST } from "../../app/api/auth/[...all]/route";
import { identify } from "../../lib/auth/identify";
import { passkeysOf } from "../../lib/db/people/passkeys";
import { createPerson, deactivatePerson } from "../../lib/db/people/people";
import { testApi, type Api } from "../helpers/api";
import { TEST_PASSWORD } from "../helpers/people";
import { SoftAuthenticator } from "../helpers/soft-authenticator";

// Passkeys through the real auth route (its allow-list, then better-auth's plugin), on both engines, written as
// the attacks: adding a passkey with no session (or with only someone's challenge cookie), the routes that are
// not offered, a replayed or foreign-origin assertion, a deactivated person's passkey. A software authenticator
// stands in for the browser's; e2e/passkey.spec.ts does the same in Chromium with its virtual one.
const HOST = "localhost:3000";
const ORIGIN = `http://${HOST}`;

let api: Api;
afterEach(async () => {
  await api?.close();
});

/** A browser's cookies for this origin: what each answer sets is sent with the next request. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const value = pair.slice(eq + 1);
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

async function auth(method: "GET" | "POST", path: string, jar: Jar | null, body?: unknown, host = HOST) {
  const headers: Record<string, string> = { host, origin: `http://${host}` };
  const cookie = jar?.header();
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  const req = new Request(`http://${host}/api/auth/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await (method === "GET" ? GET : POST)(req, {});
  jar?.take(res);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signedIn(email: string): Promise<{ id: string; jar: Jar }> {
  const person = await createPerson(api.t.db, {
    email,
    name: email.split("@")[0] ?? email,
    password: TEST_PASSWORD,
    memberships: [{ root: "/", role: "member" }],
  });
  const jar = new Jar();
  const res = await auth("POST", "sign-in/email", jar, { email, password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  return { id: person.id, jar };
}

async function addPasskey(jar: Jar, key: SoftAuthenticator) {
  const options = await auth("GET", "passkey/generate-register-options", jar);
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  return auth("POST", "passkey/verify-registration", jar, { response: key.register(options.body.challenge) });
}

async function signInWith(key: SoftAuthenticator, jar = new Jar(), origin?: string) {
  const options = await auth("GET", "passkey/generate-authenticate-options", jar);
  expect(options.status).toBe(200);
  const response = key.authenticate(options.body.challenge, origin);
  return { jar, response, res: await auth("POST", "passkey/verify-authentication", jar, { response }) };
}

const passkeyRows = () => api.t.db.passkey.count();

describe("passkeys, as the attacks", () => {
  it("with no signed-in session, adding a passkey is refused (even holding someone's challenge) and no row is written", async () => {
    api = testApi();
    const key = new SoftAuthenticator("localhost", ORIGIN);
    expect((await auth("GET", "passkey/generate-register-options", null)).status).toBe(401);
    const anon = await auth("POST", "passkey/verify-registration", new Jar(), { response: key.register("x") });
    expect(anon.status).toBe(401);
    const forged = new Jar();
    forged.take(new Response(null, { headers: { "set-cookie": "plangate.session_token=forged.signature" } }));
    expect((await auth("GET", "passkey/generate-register-options", forged)).status).toBe(401);

    // Ada asks for registration options; an attacker with her challenge cookie but not her session gets nowhere.
    const ada = await signedIn("ada@example.com");
    const options = await auth("GET", "passkey/generate-register-options", ada.jar);
    expect(options.status).toBe(200);
    const stolen = new Jar();
    const challengeCookie = ada.jar
      .header()
      .split("; ")
      .filter((c) => c.includes("passkey"));
    expect(challengeCookie.length).toBe(1);
    stolen.take(new Response(null, { headers: { "set-cookie": challengeCookie[0] ?? "" } }));
    const theirs = new SoftAuthenticator("localhost", ORIGIN);
    const attempt = await auth("POST", "passkey/verify-registration", stolen, {
      response: theirs.register(options.body.challenge),
    });
    expect(attempt.status).toBe(401);
    expect(await passkeyRows()).toBe(0);
  });

  it("a signed-in person adds a passkey to their own account and signs in with it alone; replays and other origins do not", async () => {
    api = testApi();
    const ada = await signedIn("ada@example.com");
    const key = new SoftAuthenticator("localhost", ORIGIN);
    const added = await addPasskey(ada.jar, key);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const mine = await passkeysOf(api.t.db, ada.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.id).toMatch(/^pky_/);
    expect(mine[0]?.createdAt).toBeInstanceOf(Date);

    // A fresh browser with no cookies: the passkey alone signs Ada in, and the session is hers.
    const { jar, response, res } = await signInWith(key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const actor = await identify(api.t.db, new Headers({ cookie: jar.header() }));
    expect(actor).toMatchObject({ kind: "person", userId: ada.id });

    // The same signed answer again: its challenge was spent, and a new challenge does not match it.
    expect((await auth("POST", "passkey/verify-authentication", jar, { response })).status).toBe(400);
    const replay = new Jar();
    await auth("GET", "passkey/generate-authenticate-options", replay);
    expect((await auth("POST", "passkey/verify-authentication", replay, { response })).status).toBe(400);
    // Signed for another site's origin (a phishing page relaying the ceremony): refused.
    const phished = await signInWith(key, new Jar(), "http://localhost.evil.example");
    expect(phished.res.status).toBeGreaterThanOrEqual(400);
    expect(phished.jar.header()).not.toMatch(/session_token/);
  });

  it("a deactivated person's passkey signs nobody in, and no session is written", async () => {
    api = testApi();
    const ada = await signedIn("ada@example.com");
    const key = new SoftAuthenticator("localhost", ORIGIN);
    expect((await addPasskey(ada.jar, key)).status).toBe(200);
    await deactivatePerson(api.t.db, ada.id);
    const { jar, res } = await signInWith(key);
    expect(res.status).toBe(401);
    expect(jar.header()).not.toMatch(/session_token/);
    expect(await api.t.db.authSession.count({ where: { userId: ada.id } })).toBe(0);
  });

  it("the passkey routes not offered are 404 even signed in, and another person's passkey is untouched", async () => {
    api = testApi();
    const ada = await signedIn("ada@example.com");
    expect((await addPasskey(ada.jar, new SoftAuthenticator("localhost", ORIGIN))).status).toBe(200);
    const [adaKey] = await passkeysOf(api.t.db, ada.id);
    const bo = await signedIn("bo@example.com");
    for (const [method, path, body] of [
      ["GET", "passkey/list-user-passkeys", undefined],
      ["POST", "passkey/delete-passkey", { id: adaKey?.id }],
      ["POST", "passkey/update-passkey", { id: adaKey?.id, name: "mine now" }],
    ] as const) {
      expect((await auth(method, path, bo.jar, body)).status, path).toBe(404);
      expect((await auth(method, path, ada.jar, body)).status, path).toBe(404);
    }
    expect(await passkeysOf(api.t.db, ada.id)).toEqual([adaKey]);
  });

  it("a person removes their own passkey and it signs nobody in; another's, or with a token, is refused and stays", async () => {
    api = testApi();
    const ada = await signedIn("ada@example.com");
    const key = new SoftAuthenticator("localhost", ORIGIN);
    expect((await addPasskey(ada.jar, key)).status).toBe(200);
    const [adaKey] = await passkeysOf(api.t.db, ada.id);
    if (!adaKey) throw new Error("no passkey");
    const bo = await signedIn("bo@example.com");
    const removal = `/api/passkeys/${adaKey.id}`;
    // The attacks: Bo (signed in), the operator token, nobody. Each leaves her passkey in place.
    expect((await api.call("DELETE", removal, undefined, { cookie: bo.jar.header() })).status).toBe(404);
    expect((await api.call("DELETE", removal)).status).toBe(403);
    expect((await api.call("DELETE", removal, undefined, null)).status).toBe(401);
    expect(await passkeysOf(api.t.db, ada.id)).toEqual([adaKey]);
    expect((await signInWith(key)).res.status).toBe(200);

    const removed = await api.call("DELETE", removal, undefined, { cookie: ada.jar.header() });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await passkeysOf(api.t.db, ada.id)).toEqual([]);
    expect(
      await api.t.db.auditEntry.count({ where: { kind: "passkey.removed", subject: adaKey.id, userId: ada.id } }),
    ).toBe(1);
    const after = await signInWith(key);
    expect(after.res.status).not.toBe(200);
    expect(after.jar.header()).not.toMatch(/session_token/);
  });

  it("the RP ID is the host name the request came to (only an allowed one), never one from the body", async () => {
    api = testApi({ env: { PLANGATE_ALLOWED_HOSTS: "plangate.example" } });
    const local = await auth("GET", "passkey/generate-authenticate-options?rpId=evil.example", null);
    expect(local.body.rpId).toBe("localhost");
    const named = await auth("GET", "passkey/generate-authenticate-options", null, undefined, "plangate.example");
    expect(named.body.rpId).toBe("plangate.example");
  });
});
