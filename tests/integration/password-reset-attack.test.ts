import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { POST as authPost } from "../../app/api/auth/[...all]/route";
import { POST as linkPost } from "../../app/api/links/[token]/route";
import { createPerson } from "../../lib/db/people/people";
import { testApi, type Api } from "../helpers/api";
import { TEST_PASSWORD } from "../helpers/people";

// Issue 41, class 9: a password reset ended nothing. Someone who had the password (or a stolen cookie, or a token
// the person made) kept signing requests after the person reset it. The attack: sign in on two "devices", make an
// agent token and a reviewer token, then reset the password through the one-time link `npm run user -- reset`
// prints. Every one of the four credentials made before the reset must be refused at its next request.
let api: Api;
afterEach(async () => {
  await api?.close();
});

const repo = path.resolve(import.meta.dirname, "../..");
const ORIGIN = "http://localhost:3000";
const NEW_PASSWORD = "a brand new passphrase";

async function signIn(email: string, password: string): Promise<{ status: number; cookie: string }> {
  const res = await authPost(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { host: "localhost:3000", origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    }),
    {},
  );
  return { status: res.status, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "" };
}

/** `npm run user -- reset <email>` against the test's database: the one-time link it prints. */
function resetLinkByScript(email: string): string {
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/user.ts", "reset", email],
    { cwd: repo, encoding: "utf8", env: { ...process.env, DATABASE_URL: api.t.url }, timeout: 60_000 },
  );
  if (r.status !== 0) throw new Error(`npm run user -- reset: ${r.stderr || r.stdout}`);
  const secret = /\/link\/([A-Za-z0-9_-]+)/.exec(r.stdout)?.[1];
  if (!secret) throw new Error(`no link in: ${r.stdout}`);
  return secret;
}

async function tryLink(secret: string, password: string) {
  const res = await linkPost(
    new Request(`${ORIGIN}/api/links/${secret}`, {
      method: "POST",
      headers: { host: "localhost:3000", origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ password }),
    }),
    { params: Promise.resolve({ token: secret }) },
  );
  return { status: res.status, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "" };
}

const me = async (as: { cookie: string } | { bearer: string }) =>
  (await api.call("GET", "/api/me", undefined, as)).status;

describe("a password reset ends every sign-in and token of that person made before it", () => {
  it("two devices' cookies, an agent token and a reviewer token are refused after the reset; a new sign-in works", async () => {
    api = testApi();
    const email = "pat@example.com";
    await createPerson(api.t.db, {
      email,
      name: "Pat",
      password: TEST_PASSWORD,
      memberships: [{ root: "/", role: "reviewer" }],
    });
    // Someone else, whose sign-in and token the reset must leave alone.
    await createPerson(api.t.db, {
      email: "quinn@example.com",
      name: "Quinn",
      password: TEST_PASSWORD,
      memberships: [{ root: "/", role: "reviewer" }],
    });
    const laptop = await signIn(email, TEST_PASSWORD);
    const phone = await signIn(email, TEST_PASSWORD);
    const other = await signIn("quinn@example.com", TEST_PASSWORD);
    expect([laptop.status, phone.status, other.status]).toEqual([200, 200, 200]);
    expect(laptop.cookie).not.toBe(phone.cookie);
    const made = async (scope: string, as = laptop) =>
      (await api.call("POST", "/api/tokens", { name: scope, scope }, { cookie: as.cookie })).body.secret as string;
    const agentToken = await made("agent");
    const reviewerToken = await made("reviewer");
    const othersToken = await made("reviewer", other);
    const before = [
      { cookie: laptop.cookie },
      { cookie: phone.cookie },
      { bearer: agentToken },
      { bearer: reviewerToken },
    ];
    for (const as of before) expect(await me(as)).toBe(200);

    const reset = await tryLink(resetLinkByScript(email), NEW_PASSWORD);
    expect(reset.status).toBe(200);

    // The effect: everything Pat signed in with before the reset is worth nothing now.
    for (const as of before) expect(await me(as), JSON.stringify(as)).toBe(401);
    expect((await signIn(email, TEST_PASSWORD)).status).toBe(401);
    // The browser that used the link is signed in afresh, and a new sign-in with the new password works.
    expect(await me({ cookie: reset.cookie })).toBe(200);
    const fresh = await signIn(email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(await me({ cookie: fresh.cookie })).toBe(200);
    // A token made after the reset works.
    expect(await me({ bearer: await made("agent", fresh) })).toBe(200);
    // Nobody else's sign-in or token ended.
    expect(await me({ cookie: other.cookie })).toBe(200);
    expect(await me({ bearer: othersToken })).toBe(200);
    // No other way to change a password is offered (better-auth's own routes for it stay closed), so none keeps
    // the old sessions: the link is the one way, signed in or not.
    for (const route of ["change-password", "reset-password", "request-password-reset", "set-password"]) {
      const res = await authPost(
        new Request(`${ORIGIN}/api/auth/${route}`, {
          method: "POST",
          headers: { host: "localhost:3000", origin: ORIGIN, cookie: fresh.cookie, "content-type": "application/json" },
          body: JSON.stringify({ currentPassword: NEW_PASSWORD, newPassword: "yet another passphrase" }),
        }),
        {},
      );
      expect(res.status, route).toBe(404);
    }
    // The reset is on the audit log with what it ended.
    const audit = (await api.call("GET", "/api/audit?kind=link.reset")).body.entries as {
      subject: string;
      detail: Record<string, unknown>;
    }[];
    expect(audit).toEqual([
      expect.objectContaining({ subject: email, detail: { sessionsEnded: 2, tokensRevoked: 2 } }),
    ]);
  });
});
