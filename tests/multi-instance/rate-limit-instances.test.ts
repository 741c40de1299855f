import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../helpers/instances";
import { addPersonByScript, TEST_PASSWORD } from "../helpers/people";

// Issue 41: the sign-in limit is the database's, not an instance's memory. Two `npm start` processes on one
// PostgreSQL database; twenty wrong passwords for one account sent at once, spread over both: exactly ten are tried
// (the limit), the other ten are refused, and then the right password is refused on either instance.
let c: Cluster;

beforeAll(async () => {
  c = await startCluster("limits", 2);
}, 300_000);

afterAll(async () => {
  await c?.stop();
}, 60_000);

async function signIn(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}

describe("the sign-in limit across instances", () => {
  it("20 concurrent wrong passwords over two instances: ten tried, ten 429; then the right one is 429 on both", async () => {
    addPersonByScript({ DATABASE_URL: c.dbUrl, PLANGATE_DATA_DIR: c.root }, "pat@example.com", "member");
    const [a, b] = c.servers.map((s) => s.url) as [string, string];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signIn(i % 2 ? b : a, "pat@example.com", `wrong guess ${i}`)),
    );
    expect(answers.filter((r) => r.status === 401)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(10);
    for (const base of [a, b]) {
      const right = await signIn(base, "pat@example.com", TEST_PASSWORD);
      expect(right.status).toBe(429);
      expect(Number(right.retryAfter)).toBeGreaterThan(0);
    }
    const rows = await c.query<{ count: number }>(`SELECT "count" FROM "RateLimit" WHERE "key" LIKE 'sign-in:email:%'`);
    expect(rows.map((r) => Number(r.count))).toEqual([10]);
  });
});
