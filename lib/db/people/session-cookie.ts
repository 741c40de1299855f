import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "../../env";
import { type Db, kysely } from "../client";
import { makePrivateDir } from "../private-files";
import { shapedQuery } from "../shaped-query";
import { type Membership, rolesInRows } from "../../auth/rules/rights";
import { sameToken } from "../../auth/rules/same-token";

// A session lasts 30 days and better-auth slides its expiry forward at most once a day.
export const SESSION_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_UPDATE_SECONDS = 24 * 60 * 60;

let secretRead: { file: string; secret: string } | null = null;

/** PLANGATE_AUTH_SECRET, or one made at first start and kept in the data folder (readable by its owner only). */
export function authSecret(): string {
  const env = getEnv();
  if (env.PLANGATE_AUTH_SECRET) return env.PLANGATE_AUTH_SECRET;
  const file = path.join(env.dataDir, "auth-secret");
  // Read once per data folder: identify() checks a cookie's signature on every request.
  if (secretRead?.file === file) return secretRead.secret;
  secretRead = { file, secret: readOrMakeSecret(file) };
  return secretRead.secret;
}

function readOrMakeSecret(file: string): string {
  const env = getEnv();
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    makePrivateDir(env.dataDir);
    try {
      fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return fs.readFileSync(file, "utf8").trim();
  }
}

// A cookie's signature is checked once per secret: a browser sends the same value on every request, and the
// HMAC (with the constant-time comparison) was a third of a signed-in request's own work inside the server.
const verified = { secret: "", tokens: new Map<string, string>() };
const MAX_VERIFIED = 10_000;

/** The session token a signed cookie value carries, when its HMAC-SHA256 signature is this server's. */
function signedToken(value: string): string | null {
  const secret = authSecret();
  if (verified.secret !== secret) verified.tokens = new Map();
  verified.secret = secret;
  const known = verified.tokens.get(value);
  if (known !== undefined) return known;
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return null;
  const token = value.slice(0, dot);
  if (!sameToken(value.slice(dot + 1), createHmac("sha256", secret).update(token).digest("base64"))) return null;
  if (verified.tokens.size >= MAX_VERIFIED) verified.tokens.clear();
  verified.tokens.set(value, token);
  return token;
}

/**
 * The person a better-auth session cookie (`<token>.<HMAC-SHA256 signature>`) names, with their roles, in one
 * indexed lookup: the signature is checked here against the same secret, then the session (its unique token) is
 * read with its person and their memberships. Null when the signature, the session, its expiry or the person
 * fails (a deactivated person's sessions are deleted; the check stands for one made in the same instant).
 * "renew" when the session is due for better-auth's once-a-day sliding renewal: the caller lets better-auth read
 * (and extend) it, so sessions behave as its own.
 */
export async function personOfSessionCookie(
  db: Db,
  value: string,
  now = Date.now(),
): Promise<{ userId: string; name: string; memberships: Membership[] } | "renew" | null> {
  const token = signedToken(value);
  if (token === null) return null;
  const k = kysely(db);
  const rows = await sessionRows(k, "session", { token }, (bind) =>
    k
      .selectFrom("AuthSession as s")
      .innerJoin("User as u", "u.id", "s.userId")
      .leftJoin("Membership as m", "m.userId", "u.id")
      .select(["s.userId", "s.expiresAt", "u.name", "u.deactivatedAt", "m.root", "m.role"])
      .where("s.token", "=", bind<string>("token")),
  );
  const row = rows[0];
  if (!row || row.deactivatedAt) return null;
  const expires = new Date(row.expiresAt).getTime();
  if (expires <= now) return null;
  if (expires - (SESSION_SECONDS - SESSION_UPDATE_SECONDS) * 1000 <= now) return "renew";
  return { userId: row.userId, name: row.name, memberships: rolesInRows(rows) };
}
// Every request with a session cookie runs it: compiled once, not built afresh each time.
const sessionRows = shapedQuery<{
  userId: string;
  expiresAt: Date | string;
  name: string;
  deactivatedAt: Date | string | null;
  root: string | null;
  role: string | null;
}>();
