import { afterEach, describe, expect, it } from "vitest";
import { POST } from "../../app/api/auth/[...all]/route";
import { identify } from "../../lib/auth/identify";
import { OPERATOR_COOKIE } from "../../lib/auth/rules/cookie-names";
import { testApi, type Api } from "../helpers/api";
import { signedInCookie } from "../helpers/people";

// Signing out ends everything this browser acts with: the person's session (deleted on the server, so the old
// cookie is worth nothing if it was copied) and the operator cookie a ?token= link left behind.
let api: Api;
afterEach(async () => {
  await api?.close();
});

describe("sign-out", () => {
  it("deletes the person's session and clears the operator cookie; the old cookies then identify nobody as them", async () => {
    api = testApi();
    const { cookie, userId } = await signedInCookie(api.t.db, "ada@example.com", [{ root: "/", role: "reviewer" }]);
    expect(await identify(api.t.db, new Headers({ cookie }))).toMatchObject({ kind: "person", userId });
    const operator = `${OPERATOR_COOKIE}=${process.env.PLANGATE_TOKEN}`;
    const res = await POST(
      new Request("http://localhost:3000/api/auth/sign-out", {
        method: "POST",
        headers: { host: "localhost:3000", origin: "http://localhost:3000", cookie: `${cookie}; ${operator}` },
      }),
      {},
    );
    expect(res.status).toBe(200);
    const cleared = res.headers.getSetCookie();
    expect(cleared.find((c) => c.startsWith(`${OPERATOR_COOKIE}=;`))).toMatch(/Max-Age=0/);
    expect(cleared.find((c) => c.startsWith("plangate.session_token="))).toMatch(/Max-Age=0/i);
    expect(await api.t.db.authSession.count({ where: { userId } })).toBe(0);
    expect(await identify(api.t.db, new Headers({ cookie }))).toBeNull();
  });
});
