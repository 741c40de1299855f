import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { passkey } from "@better-auth/passkey";
import { APIError, betterAuth } from "better-auth";
import { getEnv } from "../../env";
import { newId } from "../../id";
import { type Db, kysely, providerOf } from "../client";
import { ssoPlugins } from "./sso";
import { takeAttempt } from "../rate-limits";
import { makePrivateDir } from "../private-files";
import { shapedQuery } from "../shaped-query";
import { type Membership, rolesInRows } from "../../core/people";

import { AUTH_COOKIE_PREFIX } from "../../core/cookie-names";
import { sameToken } from "../../core/same-token";

// A session lasts 30 days and better-auth slides its expiry forward at most once a day.
const SESSION_SECONDS = 30 * 24 * 60 * 60;
const SESSION_UPDATE_SECONDS = 24 * 60 * 60;

const ID_PREFIX: Record<string, string> = {
  user: "usr",
  session: "ase",
  account: "acc",
  verification: "ver",
  passkey: "pky",
};

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

function hostPatterns(): string[] {
  const env = getEnv();
  const names = ["localhost", "127.0.0.1", "[::1]", env.HOST, ...env.allowedHosts];
  return [...new Set(names)].flatMap((n) => [n, `${n}:*`]);
}

function createAuth(db: Db) {
  const env = getEnv();
  return betterAuth({
    appName: "Plangate",
    secret: authSecret(),
    // The server answers to loopback and the configured names; better-auth builds its URLs from the one used.
    baseURL: { allowedHosts: hostPatterns(), fallback: `http://localhost:${env.PORT}` },
    database: { db: kysely(db), type: providerOf(db) },
    user: {
      modelName: "User",
      // Read with the session (no second lookup) and never set through better-auth's routes.
      additionalFields: { deactivatedAt: { type: "date", required: false, input: false } },
    },
    session: { modelName: "AuthSession", expiresIn: SESSION_SECONDS, updateAge: SESSION_UPDATE_SECONDS },
    account: { modelName: "AuthAccount" },
    verification: { modelName: "AuthVerification" },
    // People are added by an owner (an invite, `npm run user -- add`), never by signing themselves up.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 10 },
    // The proxy and the routes check Origin against Host already; this repeats it for better-auth's own routes.
    trustedOrigins: (request) => (request ? [new URL(request.url).origin] : []),
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      database: {
        generateId: ({ model }) => newId(ID_PREFIX[model] ?? "aut"),
        // Our migrations own these tables (people.test.ts signs in on both engines); its introspection reads
        // a text[] that the Prisma PostgreSQL adapter cannot hand over.
        validateSchema: false,
      },
    },
    // OpenID Connect sign-in when configured (sso.ts): links to people an owner added, never makes one.
    plugins: [
      ...ssoPlugins(env),
      passkey({
        rpName: "Plangate",
        // No rpID and no origin here, on purpose: with baseURL.allowedHosts better-auth resolves the base URL per
        // request from its Host (only a name in allowedHosts; anything else is refused), and the plugin takes
        // the RP ID from that URL's host name. So a person on localhost:PORT and one on HOST each get their own
        // site, never one named in a request body. The expected origin is the request's Origin, which the proxy
        // and trustedOrigins above have already matched to that Host. Browsers refuse an IP address (127.0.0.1)
        // as an RP ID, so the pages say to use localhost there and offer no passkey button.
        schema: { passkey: { modelName: "Passkey" } },
        // Said outright (it is the default): a passkey is added only to the signed-in person's own account.
        registration: { requireSession: true },
        // A deactivated person's sessions are deleted and identify() refuses them; their passkey must not mint
        // a new one either (checked after the signature, before the session is written).
        authentication: {
          async afterVerification({ ctx, clientData }) {
            const { adapter } = ctx.context;
            const where = (field: string, value: string) => [{ field, value }];
            const key = await adapter.findOne<{ userId: string }>({
              model: "passkey",
              where: where("credentialID", clientData.id),
            });
            const user =
              key &&
              (await adapter.findOne<{ deactivatedAt: Date | null }>({
                model: "user",
                where: where("id", key.userId),
              }));
            if (user?.deactivatedAt) throw new APIError("UNAUTHORIZED", { message: "This account is deactivated." });
          },
        },
      }),
    ],
    // better-auth's own limiter, per address and path, on every route it serves, counted in the RateLimit table
    // (lib/db/rate-limits.ts) so every instance shares it. A password sign-in is also limited per email and per
    // address by Plangate (lib/auth/limit-sign-in.ts); this one is the brake on floods of any of its routes.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      // Its own default for sign-in (3 per 10 seconds per address) would lock out an office behind one address.
      customRules: { "/sign-in/*": { window: 60, max: 60 } },
      customStorage: {
        async consume(key, rule) {
          const taken = await takeAttempt(db, `auth:${key}`, { max: rule.max, windowMs: rule.window * 1000 });
          return { allowed: taken.allowed, retryAfter: taken.allowed ? null : taken.retryAfterSeconds };
        },
      },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const registry = globalThis as unknown as { plangateAuth?: WeakMap<Db, Auth> };
const auths = (registry.plangateAuth ??= new WeakMap());

/** better-auth on the app's own connection (its Kysely adapter over our dialect): one per database client. */
export function authFor(db: Db): Auth {
  let auth = auths.get(db);
  if (!auth) {
    auth = createAuth(db);
    auths.set(db, auth);
  }
  return auth;
}

/** Drops db's better-auth so the next authFor builds it again (sso-start.ts: discovery failed the first time). */
export function forgetAuth(db: Db): void {
  auths.delete(db);
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
