import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as authGet, POST as authPost } from "../../app/api/auth/[...all]/route";
import { POST as linkPost } from "../../app/api/links/[token]/route";
import { createDb, type Db } from "../../lib/db/client";
import { createLink } from "../../lib/db/people/links";
import { createPerson } from "../../lib/db/people/people";
import { testApi, type Api } from "../helpers/api";
import { signedInCookie, TEST_PASSWORD } from "../helpers/people";

// Issue 41, found in a code read: better-auth's rate limit was off, so passwords and one-time links could be
// guessed as fast as the server hashed, and a stolen session could mint tokens without end. Each case is the attack
// (a flood from one address, against one account, or of one kind of request) and the check that it is refused with
// a 429 that says when to try again, in the database, so that another instance refuses it as well.
let api: Api;
let second: Db | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await second?.$disconnect();
  second = undefined;
  await api?.close();
});

const ORIGIN = "http://localhost:3000";
const WINDOW_S = 300;
const headers = (address?: string, extra: Record<string, string> = {}) => ({
  host: "localhost:3000",
  origin: ORIGIN,
  "content-type": "application/json",
  ...(address ? { "x-forwarded-for": address } : {}),
  ...extra,
});

async function signIn(email: string, password: string, address?: string) {
  const res = await authPost(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: headers(address),
      body: JSON.stringify({ email, password }),
    }),
    {},
  );
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json().catch(() => null) };
}

async function tryLink(secret: string, address: string) {
  const res = await linkPost(
    new Request(`${ORIGIN}/api/links/${secret}`, {
      method: "POST",
      headers: headers(address),
      body: JSON.stringify({ password: "a new passphrase here" }),
    }),
    { params: Promise.resolve({ token: secret }) },
  );
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json().catch(() => null) };
}

/** A refusal that says when to try again: Retry-After in whole seconds within the window, and the same in words. */
type Refusal = { status: number; retryAfter: string | null; body: { error: { code: string; message: string } } | null };
function expectRefused(r: Refusal, what: RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(429);
  expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(r.retryAfter)).toBeLessThanOrEqual(WINDOW_S);
  expect(r.body?.error.code).toBe("rate_limited");
  expect(r.body?.error.message).toMatch(what);
  expect(r.body?.error.message).toMatch(/try again in \d+ (seconds?|minutes?)/);
}

/** Another instance of the server: its own connection (pool) and its own better-auth, on the same database. */
function asAnotherInstance(): void {
  second = createDb(api.t.url);
  (globalThis as { plangateDb?: unknown }).plangateDb = second;
}

const person = (email: string) =>
  createPerson(api.t.db, {
    email,
    name: email.split("@")[0] ?? email,
    password: TEST_PASSWORD,
    memberships: [{ root: "/", role: "member" }],
  });

describe("credentials are limited to a person's pace, in the database every instance reads", () => {
  it("eleven wrong passwords for one email: the eleventh is 429, and the right one too until the window passes", async () => {
    api = testApi();
    await person("pat@example.com");
    await person("quinn@example.com");
    for (let i = 0; i < 10; i++) expect((await signIn("pat@example.com", `wrong guess ${i}`)).status).toBe(401);
    expectRefused(await signIn("Pat@Example.com ", "wrong guess 10"), /sign-in attempts/);
    expectRefused(await signIn("pat@example.com", TEST_PASSWORD), /sign-in attempts/);
    // Someone else at the same address signs in: the limit is the account's.
    expect((await signIn("quinn@example.com", TEST_PASSWORD)).status).toBe(200);
    // Another instance (its own pool and better-auth) refuses it too: the count is in the database, under a digest.
    asAnotherInstance();
    expectRefused(await signIn("pat@example.com", TEST_PASSWORD), /sign-in attempts/);
    const rows = await second!.rateLimit.findMany();
    expect(rows.filter((r) => r.key.startsWith("sign-in:email:")).map((r) => Number(r.count))).toContain(10);
    expect(rows.some((r) => r.key.includes("pat@example.com"))).toBe(false);
    // When the window has passed (the test's clock), the right password works again, once.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + (WINDOW_S + 1) * 1000);
    expect((await signIn("pat@example.com", TEST_PASSWORD)).status).toBe(200);
  });

  it("failed sign-ins spread over many emails from one address: the next is 429; another address is not", async () => {
    api = testApi({ env: { PLANGATE_LIMIT_ADDRESS: "5" } });
    await person("pat@example.com");
    for (let i = 0; i < 5; i++)
      expect((await signIn(`nobody${i}@example.com`, "a guessed password", "203.0.113.7")).status).toBe(401);
    expectRefused(await signIn("nobody5@example.com", "a guessed password", "203.0.113.7"), /sign-in attempts/);
    expectRefused(await signIn("pat@example.com", TEST_PASSWORD, "203.0.113.7"), /sign-in attempts/);
    expect((await signIn("nobody6@example.com", "a guessed password", "198.51.100.9")).status).toBe(401);
    expect((await signIn("pat@example.com", TEST_PASSWORD, "198.51.100.9")).status).toBe(200);
  });

  it("one-time link guesses: the 21st wrong secret from an address is 429, and a real link from there waits too", async () => {
    api = testApi();
    await person("pat@example.com");
    const { secret } = await createLink(api.t.db, { purpose: "reset", email: "pat@example.com", ttlMs: 3_600_000 });
    for (let i = 0; i < 20; i++)
      expect((await tryLink(randomBytes(24).toString("base64url"), "203.0.113.7")).status).toBe(404);
    expectRefused(await tryLink(randomBytes(24).toString("base64url"), "203.0.113.7"), /one-time links/);
    asAnotherInstance();
    expectRefused(await tryLink(secret, "203.0.113.7"), /one-time links/);
    expect((await tryLink(secret, "198.51.100.9")).status).toBe(200);
  });

  it("a token flood: the 21st token a person makes in the window is 429, and is not made", async () => {
    api = testApi();
    const { cookie, userId } = await signedInCookie(api.t.db, "pat@example.com", [{ root: "/", role: "member" }]);
    for (let i = 0; i < 20; i++)
      expect((await api.call("POST", "/api/tokens", { name: `t${i}`, scope: "agent" }, { cookie })).status).toBe(201);
    const res = await api.call("POST", "/api/tokens", { name: "one more", scope: "agent" }, { cookie });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toMatch(/Too many tokens made; try again in/);
    expect(await api.t.db.apiToken.count({ where: { userId } })).toBe(20);
  });

  it("better-auth's own limiter is on: a flood of one of its routes from one address is 429 with Retry-After", async () => {
    api = testApi();
    const getSession = () =>
      authGet(new Request(`${ORIGIN}/api/auth/get-session`, { headers: headers("203.0.113.7") }), {});
    for (let i = 0; i < 100; i++) expect((await getSession()).status).toBe(200);
    const res = await getSession();
    expectRefused(
      { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() },
      /Too many requests/,
    );
    expect((await api.t.db.rateLimit.findMany()).map((r) => r.key)).toContain("auth:203.0.113.7|/get-session");
  });
});
