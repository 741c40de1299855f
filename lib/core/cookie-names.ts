/**
 * The sign-in cookies, in a module with no imports so the proxy can name them without loading the database:
 * better-auth's signed session cookie (its `__Secure-` form over TLS), and the operator's token cookie.
 */
export const AUTH_COOKIE_PREFIX = "plangate";
export const SESSION_COOKIE = `${AUTH_COOKIE_PREFIX}.session_token`;
export const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;
export const OPERATOR_COOKIE = "plangate_token";
