/**
 * The credentials benches act with, as the test suites do (issue 26): the operator token for the servers a bench
 * starts (scripts drive them as an operator would), or a signed-in person's session cookie where the figure is
 * about a person's request. Never an exemption: a bench request without one would measure a 401.
 */
import { randomBytes } from "node:crypto";
import type { Role } from "../../lib/auth/rules/rights";
import type { Db } from "../../lib/db/client";
import { signedInCookie } from "../../tests/helpers/people";

/** PLANGATE_TOKEN for every server this bench process starts. */
export const OPERATOR_TOKEN = `bench-${randomBytes(18).toString("base64url")}`;

export const operatorHeaders = (): Record<string, string> => ({ authorization: `Bearer ${OPERATOR_TOKEN}` });

let people = 0;

/** A new person with `role` on `root`, signed in: the `cookie` header their browser sends. */
export async function personCookie(db: Db, root: string, role: Role = "reviewer"): Promise<string> {
  people += 1;
  const { cookie } = await signedInCookie(db, `bench-${people}-${process.pid}@example.com`, [{ root, role }]);
  if (!cookie) throw new Error("sign-in set no session cookie");
  return cookie;
}
