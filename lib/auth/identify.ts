import "server-only";
import type { Actor } from "./rules/rights";
import type { Db } from "../db/client";
import { personOfSessionCookie } from "../db/people/session-cookie";
import { OPERATOR_COOKIE, parseCookies, SECURE_SESSION_COOKIE, SESSION_COOKIE } from "./rules/cookie-names";
import { membershipsOf } from "../db/people/people";
import { findLiveToken, TOKEN_PREFIX, touchToken } from "../db/people/tokens";
import { getEnv } from "../env";
import { sameToken } from "./rules/same-token";

function bearer(header: string | null): string | null | undefined {
  if (header === null) return undefined;
  const m = /^Bearer ([^\s]+)$/i.exec(header.trim());
  return m ? (m[1] ?? null) : null;
}

async function fromToken(db: Db, secret: string): Promise<Actor | null> {
  const operator = getEnv().PLANGATE_TOKEN;
  if (operator && sameToken(secret, operator)) return { kind: "operator" };
  if (!secret.startsWith(TOKEN_PREFIX)) return null;
  const token = await findLiveToken(db, secret);
  if (!token) return null;
  await touchToken(db, token);
  const { memberships } = token;
  if (token.scope === "agent") return { kind: "agent-token", tokenId: token.id, userId: token.userId, memberships };
  return { kind: "reviewer-token", tokenId: token.id, userId: token.userId, name: token.personName, memberships };
}

/**
 * Who sent this request, from what the server checked: the operator (PLANGATE_TOKEN as a bearer token or its
 * cookie), a scoped token (one indexed lookup of its hash), or a signed-in person (better-auth's signed session
 * cookie: its signature, one indexed lookup of the session with its person, one of their roles). Null when
 * nothing valid was presented; a bearer header that is not valid never falls back to a cookie.
 */
export async function identify(db: Db, headers: Headers): Promise<Actor | null> {
  const presented = bearer(headers.get("authorization"));
  if (presented !== undefined) return presented === null ? null : fromToken(db, presented);
  const jar = parseCookies(headers.get("cookie"));
  const operatorCookie = jar.get(OPERATOR_COOKIE);
  const operator = getEnv().PLANGATE_TOKEN;
  if (operatorCookie && operator && sameToken(operatorCookie, operator)) return { kind: "operator" };
  const value = jar.get(SECURE_SESSION_COOKIE) ?? jar.get(SESSION_COOKIE);
  if (value === undefined) return null;
  const person = await personOfSessionCookie(db, value);
  if (person !== "renew") return person && { kind: "person", ...person };
  // Once a day per session: better-auth reads it and slides its expiry, as it does on its own routes. Loaded here
  // only (about a megabyte of code): requests with a fresh cookie or a token never need it.
  const { authFor } = await import("./better-auth");
  const session = await authFor(db).api.getSession({ headers });
  if (!session || session.user.deactivatedAt) return null;
  const { id: userId, name } = session.user;
  return { kind: "person", userId, name, memberships: await membershipsOf(db, userId) };
}
