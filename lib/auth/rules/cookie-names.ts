/**
 * The sign-in cookies, in a module with no imports so the proxy can name them without loading the database:
 * better-auth's signed session cookie (its `__Secure-` form over TLS), and the operator's token cookie.
 */
export const AUTH_COOKIE_PREFIX = "plangate";
export const SESSION_COOKIE = `${AUTH_COOKIE_PREFIX}.session_token`;
export const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;
export const OPERATOR_COOKIE = "plangate_token";

/** A Cookie header's pairs; a malformed escape is just a cookie that matches nothing, never a 500. */
export function parseCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const raw = part.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {}
    out.set(part.slice(0, eq).trim(), value);
  }
  return out;
}

/** Whether a sign-in session cookie came (its signature and row are the route's to check). */
export const hasSessionCookie = (jar: Map<string, string>) => jar.has(SESSION_COOKIE) || jar.has(SECURE_SESSION_COOKIE);
