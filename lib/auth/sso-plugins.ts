import "server-only";
import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import { APIError } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins";
import {
  SSO_CALLBACK_PATH,
  SSO_PROVIDER_ID,
  SSO_START_PATH,
  type SsoRefusal,
  ssoAdmission,
  ssoStartBody,
  jwtPayload,
  verifiedClaims,
} from "./rules/sso";
import { AppError } from "../errors";
import { type Env, getEnv } from "../env";

/**
 * Single sign-on through one OpenID provider (better-auth's generic OAuth plugin), kept apart from better-auth.ts so the
 * plugin list there stays one line per feature. The rules it enforces are lib/auth/rules/sso.ts.
 */
export type SsoSettings = { issuer: string; clientId: string; clientSecret: string; name: string };

/** The provider from the environment; null when SSO is off (env.ts refuses half a configuration at boot). */
export function ssoSettings(env: Env = getEnv()): SsoSettings | null {
  const { PLANGATE_OIDC_ISSUER: issuer, PLANGATE_OIDC_CLIENT_ID: clientId } = env;
  const clientSecret = env.PLANGATE_OIDC_CLIENT_SECRET;
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, name: env.PLANGATE_OIDC_NAME ?? "SSO" };
}

/** The better-auth routes the flow needs, offered only while SSO is configured. */
export function ssoRoutes(env: Env = getEnv()): string[] {
  return ssoSettings(env) ? [SSO_START_PATH, SSO_CALLBACK_PATH] : [];
}

/**
 * A sign-in start rebuilt with the narrowed body (lib/auth/rules/sso.ts ssoStartBody): better-auth then never sees
 * `idToken`, `requestSignUp` or extra authorization parameters.
 */
export async function ssoStartRequest(req: Request): Promise<Request> {
  const body = ssoStartBody(await req.json().catch(() => null));
  if (!body) throw new AppError("bad_request", `body: {provider: "${SSO_PROVIDER_ID}", callbackURL, errorCallbackURL}`);
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  return new Request(req.url, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Whether a database write happens inside the SSO callback (or the start route), where the admission rule holds. */
function duringSso(ctx: GenericEndpointContext | null): ctx is GenericEndpointContext {
  if (!ctx?.path) return false;
  if (ctx.path === "/sign-in/social") return true;
  const params: unknown = ctx.params;
  return ctx.path === "/callback/:id" && (params as { id?: unknown } | undefined)?.id === SSO_PROVIDER_ID;
}

/** Refuses (as the callback's error code) a person the admission rule keeps out; reads better-auth's own row. */
async function admit(userId: string, ctx: GenericEndpointContext): Promise<void> {
  const user = await ctx.context.internalAdapter.findUserById(userId);
  // deactivatedAt is better-auth.ts's additional field: there on the row, not in better-auth's base type. Any value
  // there (a Date, or an engine's string or number) counts as deactivated: the check fails closed.
  const at: unknown = user ? (user as Record<string, unknown>).deactivatedAt : null;
  const refusal = ssoAdmission(
    user ? { deactivatedAt: at === null || at === undefined ? null : new Date(String(at)) } : null,
  );
  if (refusal) refuse(refusal);
}

function refuse(code: SsoRefusal): never {
  // The callback turns an APIError's code into `?error=<code>` on the errorCallbackURL (the sign-in page).
  throw new APIError("FORBIDDEN", { code, message: code });
}

/**
 * The admission rule where better-auth writes: no User row is ever made through SSO (the provider's
 * disableSignUp already refuses; this holds even if that changed), and a deactivated person gets neither a
 * linked account nor a session. Plain password sign-in is not touched here.
 */
function admission(): BetterAuthPlugin {
  return {
    id: "plangate-sso-admission",
    init: () => ({
      options: {
        // A person an owner added has an unverified email locally (typed by the owner); the provider's verified
        // email is the proof, so linking must not also ask for a local verification nobody could do.
        account: { accountLinking: { requireLocalEmailVerified: false } },
        databaseHooks: {
          user: {
            create: {
              before: async (_user, ctx) => {
                if (duringSso(ctx)) refuse("no_account");
              },
            },
          },
          account: {
            create: {
              before: async (account, ctx) => {
                if (duringSso(ctx)) await admit(account.userId, ctx);
              },
            },
          },
          session: {
            create: {
              before: async (session, ctx) => {
                if (duringSso(ctx)) await admit(session.userId, ctx);
              },
            },
          },
        },
      },
    }),
  };
}

/** The plugins for better-auth.ts: none when SSO is off. */
export function ssoPlugins(env: Env = getEnv()): BetterAuthPlugin[] {
  const sso = ssoSettings(env);
  if (!sso) return [];
  return [
    genericOAuth({
      config: [
        {
          providerId: SSO_PROVIDER_ID,
          name: sso.name,
          discoveryUrl: `${sso.issuer}/.well-known/openid-configuration`,
          // Without the provider's keys an ID token would be decoded unchecked: then no provider at all.
          requireIdTokenVerification: true,
          clientId: sso.clientId,
          clientSecret: sso.clientSecret,
          scopes: ["openid", "email", "profile"],
          pkce: true,
          // People are added by an owner: an email no one added is refused, never made an account.
          disableSignUp: true,
          disableImplicitSignUp: true,
          // The person's name is the one the owner gave; the provider's never overwrites it.
          overrideUserInfo: false,
          // Only the verified ID token speaks (better-auth checked its signature, issuer, audience and nonce
          // before this runs); the userinfo endpoint is not asked, and an unverified email is no email.
          getUserInfo: async (tokens) => {
            const claims = verifiedClaims(tokens.idToken ? jwtPayload(tokens.idToken) : null);
            return claims ? { ...claims, id: claims.sub } : null;
          },
        },
      ],
    }),
    admission(),
  ];
}
