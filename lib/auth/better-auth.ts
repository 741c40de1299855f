import "server-only";
import { passkey } from "@better-auth/passkey";
import { APIError, betterAuth } from "better-auth";
import { type Db, kysely, providerOf } from "../db/client";
import { passwordHasher } from "../db/people/password-hasher";
import { authSecret, SESSION_SECONDS, SESSION_UPDATE_SECONDS } from "../db/people/session-cookie";
import { takeAttempt } from "../db/rate-limits";
import { getEnv } from "../env";
import { newId } from "../id";
import { AUTH_COOKIE_PREFIX } from "./rules/cookie-names";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./rules/password";
import { ssoPlugins } from "./sso-plugins";

// better-auth's configuration: its tables (our migrations own them), sign-in methods, cookies and limits. The
// session cookie is read without it on every request (lib/db/people/session-cookie.ts), with the same secret.

const ID_PREFIX: Record<string, string> = {
  user: "usr",
  session: "ase",
  account: "acc",
  verification: "ver",
  passkey: "pky",
};

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
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      password: passwordHasher,
    },
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
