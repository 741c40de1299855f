import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../env";
import { freshDb, type TestDb } from "../../../tests/helpers/db";
import { identify } from "../../auth/identify";
import { kysely } from "../client";
import { authFor } from "../../auth/better-auth";
import { personOfSessionCookie } from "./session-cookie";
import { countPeople, createPerson, deactivatePerson, findPerson, membershipsOf, setMembership } from "./people";
import { createToken, findLiveToken, revokeToken } from "./tokens";
import { createLink, findOpenLink, spendLink } from "./links";

// better-auth's own adapter over our dialect, on both engines: a person signs in with the password set here,
// and the session it made is found again from the cookie.
let t: TestDb;
beforeEach(() => {
  t = freshDb();
  process.env.PLANGATE_DATA_DIR = t.dir;
  resetEnvCache();
});
afterEach(async () => {
  await t.close();
});

async function signIn(email: string, password: string): Promise<Response> {
  return authFor(t.db).api.signInEmail({
    body: { email, password },
    headers: new Headers({ origin: "http://localhost:3000", host: "localhost:3000" }),
    asResponse: true,
  });
}

describe("people on better-auth", () => {
  it("a person added with a password signs in, and the cookie finds their session; a wrong password does not", async () => {
    expect(await countPeople(t.db)).toBe(0);
    const ada = await createPerson(t.db, {
      email: "Ada@Example.com",
      name: "Ada",
      password: "correct horse battery",
      memberships: [{ root: "/", role: "owner" }],
    });
    expect(ada.email).toBe("ada@example.com");
    expect(await countPeople(t.db)).toBe(1);
    expect(await membershipsOf(t.db, ada.id)).toEqual([{ root: "/", role: "owner" }]);

    const wrong = await signIn("ada@example.com", "not the password");
    expect(wrong.status).toBe(401);
    const ok = await signIn("ada@example.com", "correct horse battery");
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/plangate\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const session = await authFor(t.db).api.getSession({
      headers: new Headers({ cookie: cookie.split(";")[0] ?? "" }),
    });
    expect(session?.user.id).toBe(ada.id);

    await deactivatePerson(t.db, ada.id);
    const after = await authFor(t.db).api.getSession({ headers: new Headers({ cookie: cookie.split(";")[0] ?? "" }) });
    expect(after).toBeNull();
    expect((await findPerson(t.db, { id: ada.id }))?.deactivatedAt).toBeInstanceOf(Date);
  });

  it("a password longer than sign-in takes is refused where it is set: nobody is made who could never sign in", async () => {
    // The attack on oneself: better-auth's sign-in refuses more than 128 characters, so a longer one set here
    // would leave an account nobody can sign in to (an owner's, made at setup, locks the whole server).
    const long = "x".repeat(150);
    await expect(
      createPerson(t.db, { email: "long@example.com", name: "Long", password: long, memberships: [] }),
    ).rejects.toMatchObject({ code: "bad_request", message: "password: at most 128 characters" });
    expect(await findPerson(t.db, { email: "long@example.com" })).toBeNull();
    // The longest one taken signs in.
    const longest = "y".repeat(128);
    await createPerson(t.db, { email: "edge@example.com", name: "Edge", password: longest, memberships: [] });
    expect((await signIn("edge@example.com", longest)).status).toBe(200);
  });

  it("identify() checks the cookie's signature and the session's expiry itself, and leaves renewal to better-auth", async () => {
    const ada = await createPerson(t.db, {
      email: "ada@example.com",
      name: "Ada",
      password: "correct horse battery",
      memberships: [{ root: "/w", role: "reviewer" }],
    });
    const value = decodeURIComponent(
      /plangate\.session_token=([^;]+)/.exec(
        (await signIn("ada@example.com", "correct horse battery")).headers.get("set-cookie") ?? "",
      )?.[1] ?? "",
    );
    const [token, signature] = [value.slice(0, value.lastIndexOf(".")), value.slice(value.lastIndexOf(".") + 1)];
    const who = (v: string) =>
      identify(t.db, new Headers({ cookie: `plangate.session_token=${encodeURIComponent(v)}` }));
    expect(await who(value)).toEqual({
      kind: "person",
      userId: ada.id,
      name: "Ada",
      memberships: [{ root: "/w", role: "reviewer" }],
    });
    // The attack: another token under this signature, this token under another signature, no signature at all.
    const other = await createPerson(t.db, {
      email: "eve@example.com",
      name: "Eve",
      password: "another long one",
      memberships: [],
    });
    const eve = decodeURIComponent(
      /plangate\.session_token=([^;]+)/.exec(
        (await signIn("eve@example.com", "another long one")).headers.get("set-cookie") ?? "",
      )?.[1] ?? "",
    );
    expect(other.id).not.toBe(ada.id);
    expect(await who(`${eve.slice(0, eve.lastIndexOf("."))}.${signature}`)).toBeNull();
    expect(await who(`${token}.${eve.slice(eve.lastIndexOf(".") + 1)}`)).toBeNull();
    expect(await who(token)).toBeNull();

    const setExpiry = (at: Date) =>
      kysely(t.db).updateTable("AuthSession").set({ expiresAt: at }).where("token", "=", token).execute();
    const day = 24 * 60 * 60 * 1000;
    // Past its expiry: refused, although the signature is good.
    await setExpiry(new Date(Date.now() - 1000));
    expect(await personOfSessionCookie(t.db, value)).toBeNull();
    expect(await who(value)).toBeNull();
    // Due for the once-a-day renewal: better-auth reads it and slides the expiry forward 30 days.
    await setExpiry(new Date(Date.now() + 29 * day - 60_000));
    expect(await personOfSessionCookie(t.db, value)).toBe("renew");
    expect((await who(value))?.kind).toBe("person");
    const renewed = await kysely(t.db)
      .selectFrom("AuthSession")
      .select("expiresAt")
      .where("token", "=", token)
      .executeTakeFirstOrThrow();
    expect(new Date(renewed.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29.9 * day);
    expect(await personOfSessionCookie(t.db, value)).toEqual({
      userId: ada.id,
      name: "Ada",
      memberships: [{ root: "/w", role: "reviewer" }],
    });
    // Each of their roles comes with the one lookup; a person with none has none.
    await setMembership(t.db, ada.id, { root: "/x", role: "viewer" });
    const both = await personOfSessionCookie(t.db, value);
    expect(both !== "renew" && both?.memberships.length).toBe(2);
    expect(await who(eve)).toMatchObject({ kind: "person", name: "Eve", memberships: [] });
  });

  it("signing up through better-auth's own route is refused: people are added by an owner", async () => {
    const res = await authFor(t.db).handler(
      new Request("http://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ email: "eve@example.com", password: "a long password", name: "Eve" }),
      }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await countPeople(t.db)).toBe(0);
  });

  it("a token is found by its secret until revoked, or until its person is deactivated", async () => {
    const bo = await createPerson(t.db, { email: "bo@example.com", name: "Bo", memberships: [] });
    const { token, secret } = await createToken(t.db, { userId: bo.id, name: "ci", scope: "reviewer" });
    expect(secret.startsWith("pgt_")).toBe(true);
    expect((await findLiveToken(t.db, secret))?.id).toBe(token.id);
    expect(await findLiveToken(t.db, `${secret}x`)).toBeNull();
    await revokeToken(t.db, token.id);
    expect(await findLiveToken(t.db, secret)).toBeNull();
    const second = await createToken(t.db, { userId: bo.id, name: "agent", scope: "agent" });
    await deactivatePerson(t.db, bo.id);
    expect(await findLiveToken(t.db, second.secret)).toBeNull();
  });

  it("a one-time link works once and not after it expires", async () => {
    const { secret, link } = await createLink(t.db, { purpose: "setup", ttlMs: 60_000 });
    expect((await findOpenLink(t.db, secret))?.id).toBe(link.id);
    expect(await spendLink(t.db, link.id)).toBe(true);
    expect(await spendLink(t.db, link.id)).toBe(false);
    expect(await findOpenLink(t.db, secret)).toBeNull();
    const old = await createLink(t.db, { purpose: "reset", email: "a@b.c", ttlMs: 1 });
    expect(await findOpenLink(t.db, old.secret, new Date(Date.now() + 10))).toBeNull();
  });

  it("an account, its password and its role are one write: a failure in the same act leaves none of them", async () => {
    const input = {
      email: "half@example.com",
      name: "Half",
      password: "a long password!",
      memberships: [{ root: "/", role: "owner" as const }],
    };
    await expect(
      createPerson(t.db, input, async () => {
        throw new Error("the process died here");
      }),
    ).rejects.toThrow("the process died here");
    expect(await countPeople(t.db)).toBe(0);
    expect(await t.db.authAccount.count()).toBe(0);
    expect(await t.db.membership.count()).toBe(0);
    // The same add, whole: better-auth signs in from the rows written in our transaction.
    await createPerson(t.db, input);
    const res = await authFor(t.db).api.signInEmail({
      body: { email: "half@example.com", password: "a long password!" },
      headers: new Headers({ host: "localhost:3000" }),
      asResponse: true,
    });
    expect(res.status).toBe(200);
    await expect(createPerson(t.db, input)).rejects.toMatchObject({ code: "conflict" });
  });
});
