import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { getEnv } from "../../env";
import { newId } from "../../id";
import { type Db, kysely, providerOf } from "../client";

import { AUTH_COOKIE_PREFIX } from "../../core/cookie-names";

const ID_PREFIX: Record<string, string> = { user: "usr", session: "ase", account: "acc", verification: "ver" };

/** PLANGATE_AUTH_SECRET, or one made at first start and kept in the data folder (readable by its owner only). */
export function authSecret(): string {
  const env = getEnv();
  if (env.PLANGATE_AUTH_SECRET) return env.PLANGATE_AUTH_SECRET;
  const file = path.join(env.dataDir, "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(env.dataDir, { recursive: true });
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
    session: { modelName: "AuthSession", expiresIn: 30 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
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
    // Rate limits are per instance in memory; a sign-in's password hash is the real brake.
    rateLimit: { enabled: false },
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
