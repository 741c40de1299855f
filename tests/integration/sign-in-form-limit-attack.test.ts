import { afterEach, describe, expect, it } from "vitest";
import { POST as authPost } from "../../app/api/auth/[...all]/route";
import { createPerson } from "../../lib/db/people/people";
import { testApi, type Api } from "../helpers/api";
import { TEST_PASSWORD } from "../helpers/people";

/*
 * Adversary, issue 41 ("guessing is limited in the database: failed sign-ins per email (10 per 5 minutes)"; "the
 * per-email and per-person limits do not depend on [the address]"). Plangate finds the email by reading the body as
 * JSON; better-auth's sign-in also takes `application/x-www-form-urlencoded`. Sent as a form, a sign-in names no
 * email Plangate can see, so only the per-address limits count it — and the address is whatever X-Forwarded-For
 * says. An attacker guesses one account's password without limit.
 */
let api: Api;
afterEach(async () => {
  await api?.close();
});

const ORIGIN = "http://localhost:3000";

async function signInAsForm(email: string, password: string, address: string) {
  const res = await authPost(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: {
        host: "localhost:3000",
        origin: ORIGIN,
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": address,
      },
      body: new URLSearchParams({ email, password }).toString(),
    }),
    {},
  );
  return res.status;
}

describe("the per-email limit whatever the body's encoding", () => {
  it("15 wrong passwords for one account, sent as forms from 15 addresses: the right one is still refused", async () => {
    api = testApi();
    await createPerson(api.t.db, {
      email: "olivia@example.com",
      name: "Olivia",
      password: TEST_PASSWORD,
      memberships: [{ root: "/", role: "owner" }],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++)
      statuses.push(await signInAsForm("olivia@example.com", `wrong guess ${i}!`, `10.9.0.${i}`));
    // better-auth answers the form (these are real attempts, refused for the password).
    expect(
      statuses.every((s) => s === 401 || s === 429),
      JSON.stringify(statuses),
    ).toBe(true);
    // After 10 failures for this email, the next try is refused, the right password too.
    expect(statuses.filter((s) => s === 429).length, JSON.stringify(statuses)).toBeGreaterThanOrEqual(5);
    expect(await signInAsForm("olivia@example.com", TEST_PASSWORD, "10.9.1.1")).toBe(429);
  });
});
