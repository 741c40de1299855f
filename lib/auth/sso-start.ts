import "server-only";
import { SSO_PROVIDER_ID } from "./rules/sso";
import type { Db } from "../db/client";
import { type Auth, authFor, forgetAuth } from "./better-auth";

/**
 * better-auth for a sign-in start. The generic OAuth plugin reads the provider's discovery document once, when
 * an instance is built, and leaves the provider out if that failed: a provider down at the first request would
 * keep SSO off until a restart. So a start that finds no provider builds the instance again, which asks again.
 */
export async function authForSsoStart(db: Db): Promise<Auth> {
  const auth = authFor(db);
  const { socialProviders } = await auth.$context;
  if (socialProviders.some((p) => p.id === SSO_PROVIDER_ID)) return auth;
  forgetAuth(db);
  return authFor(db);
}
