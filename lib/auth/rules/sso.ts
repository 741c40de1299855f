/**
 * Single sign-on through OpenID Connect, as plain rules: what an ID token must say before Plangate believes an
 * email, who may come in on it, and what the sign-in page says when it was refused. No I/O here; the better-auth
 * wiring is lib/auth/sso-plugins.ts.
 */

/** The one provider Plangate configures; its callback is /api/auth/callback/oidc. */
export const SSO_PROVIDER_ID = "oidc";
export const SSO_CALLBACK_PATH = `/api/auth/callback/${SSO_PROVIDER_ID}`;
/** better-auth's start of the flow (1.7 serves generic OAuth providers through its social routes). */
export const SSO_START_PATH = "/api/auth/sign-in/social";

/** What Plangate takes from a verified ID token: the subject and an email the provider vouches for. */
export type SsoClaims = { sub: string; email: string; emailVerified: true; name?: string };

/** The payload of a JWT, without checking it: better-auth has verified its signature, issuer, audience and nonce. */
export function jwtPayload(jwt: string): Record<string, unknown> | null {
  const part = jwt.split(".")[1];
  if (part === undefined) return null;
  try {
    // atob and TextDecoder, not Buffer: this module is also bundled for the browser.
    const binary = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    const payload: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return payload !== null && typeof payload === "object" && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The claims of an ID token, or null when it does not vouch for an email: a subject, an email, and
 * `email_verified` exactly true (a string "true", a missing claim or the userinfo endpoint do not count, since
 * an email the provider merely relays could be anyone's and would link to that person's account).
 */
export function verifiedClaims(payload: Record<string, unknown> | null): SsoClaims | null {
  if (!payload) return null;
  const { sub, email, email_verified: verified, name } = payload;
  if (typeof sub !== "string" || sub === "" || typeof email !== "string" || verified !== true) return null;
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return null;
  return { sub, email: email.trim().toLowerCase(), emailVerified: true, ...(typeof name === "string" ? { name } : {}) };
}

/** Why an SSO sign-in was refused, as the code the sign-in page gets back (`?error=`). */
export type SsoRefusal = "account_deactivated" | "no_account";

/**
 * Who may come in through SSO: only a person an owner added (found by the verified email, or by an account
 * already linked to the provider's subject) who is not deactivated. An unknown email gets no account at all.
 */
export function ssoAdmission(person: { deactivatedAt: Date | null } | null): SsoRefusal | null {
  if (!person) return "no_account";
  if (person.deactivatedAt) return "account_deactivated";
  return null;
}

// better-auth's callback codes (and ours) as sentences. Anything else gets the general one: the provider's own
// error_description is not shown, since a link anyone can craft would put its words on our page.
const MESSAGES: Record<string, string> = {
  signup_disabled: "No Plangate account has that email. Ask an owner to add you, then sign in again.",
  no_account: "No Plangate account has that email. Ask an owner to add you, then sign in again.",
  account_deactivated: "That account is deactivated. Ask an owner if you need it back.",
  unable_to_get_user_info: "The provider did not confirm a verified email for you, so Plangate cannot sign you in.",
  account_not_linked: "The provider did not confirm a verified email for you, so Plangate cannot sign you in.",
  access_denied: "Sign-in was cancelled at the provider.",
};

/** The sign-in page's sentence for an SSO error code; null when there is none. */
export function ssoErrorMessage(code: string | undefined): string | null {
  if (!code) return null;
  return MESSAGES[code.toLowerCase()] ?? "Single sign-on did not complete. Try again, or sign in with your password.";
}

/** A path on this server (not `//host` nor `/\host`, which browsers take as another origin), else "/". */
export function localPath(value: unknown): string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) && !/[\s\\]/.test(value) ? value : "/";
}

/** What the sign-in button may ask better-auth for: this provider, and where to go after (paths here). */
export type SsoStartBody = {
  provider: typeof SSO_PROVIDER_ID;
  callbackURL: string;
  errorCallbackURL: string;
  disableRedirect: true;
};

/**
 * The body of a sign-in start, narrowed to what the button sends. better-auth's route takes more: `idToken`
 * (a session straight from a token, no redirect), `requestSignUp`, scopes, extra authorization parameters and a
 * new-user URL. None is ours to offer, so a body with anything else is refused rather than passed on.
 */
export function ssoStartBody(raw: unknown): SsoStartBody | null {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const allowed = new Set(["provider", "callbackURL", "errorCallbackURL", "disableRedirect"]);
  if (Object.keys(raw).some((k) => !allowed.has(k))) return null;
  const body = raw as Record<string, unknown>;
  if (body.provider !== SSO_PROVIDER_ID) return null;
  return {
    provider: SSO_PROVIDER_ID,
    callbackURL: localPath(body.callbackURL),
    errorCallbackURL: localPath(body.errorCallbackURL ?? "/sign-in"),
    disableRedirect: true,
  };
}
