import { isIP } from "node:net";
import { hasSessionCookie, OPERATOR_COOKIE, parseCookies } from "../auth/rules/cookie-names";
import { sameToken } from "../auth/rules/same-token";
import type { ErrorCode } from "../errors";

export type GuardInput = {
  method: string;
  pathname: string;
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
  authorization: string | null;
  cookieToken: string | null;
  queryToken: string | null;
  /** Whether a sign-in session cookie came (the route checks its signature and its row). */
  sessionCookie: boolean;
  token: string | undefined;
  /** Host names (besides IP literals and localhost) this server answers to: PLANGATE_ALLOWED_HOSTS, the public URL's. */
  allowedHosts?: readonly string[];
};

export type GuardVerdict = { ok: true; fromQuery: boolean } | { ok: false; code: ErrorCode };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export { sameToken } from "../auth/rules/same-token";

/** The host name of a Host header ("[::1]:3000" → "::1"), lower-cased; null when it cannot be one. */
export function hostName(host: string): string | null {
  const h = host.trim().toLowerCase();
  const bracket = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(h);
  if (bracket) return bracket[1] ?? null;
  const m = /^([a-z0-9.-]+)(?::\d+)?$/.exec(h);
  return m ? (m[1] ?? null) : null;
}

/**
 * DNS rebinding: a page on attacker.test whose name later resolves to 127.0.0.1 reaches this server with
 * `Host: attacker.test`. Only IP literals (a rebinding needs a name), localhost and the configured names pass.
 */
export function hostAllowed(host: string | null, allowed: readonly string[] = []): boolean {
  if (host === null) return false;
  const name = hostName(host);
  if (name === null) return false;
  if (isIP(name) !== 0 || name === "localhost") return true;
  return allowed.some((a) => a.toLowerCase() === name);
}

/** The token of an `Authorization: Bearer <token>` header; any other scheme presents nothing. */
function bearerToken(authorization: string | null): string | null {
  if (authorization === null) return null;
  const m = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
  return m ? (m[1] ?? null) : null;
}

/**
 * Paths anyone may load: the health check, the sign-in pages and their routes, one-time links, the CLI file,
 * Slack's interactivity requests (which carry Slack's signature, checked by their route, instead of a credential),
 * and the installable app's manifest, service worker and icons (a browser fetches a manifest without cookies).
 */
export function isOpenPath(pathname: string): boolean {
  return (
    pathname === "/api/health" ||
    pathname === "/manifest.webmanifest" ||
    pathname === "/sw.js" ||
    /^\/icons\/icon-\d+\.png$/.test(pathname) ||
    pathname === "/api/integrations/slack/interactions" ||
    pathname === "/sign-in" ||
    pathname.startsWith("/api/auth/") ||
    pathname.startsWith("/link/") ||
    pathname.startsWith("/api/links/") ||
    pathname.startsWith("/cli/")
  );
}

/** This server's side of the check: the operator's token and the host names it answers to. */
export type GuardServer = { token: string | undefined; host: string; allowedHosts: readonly string[] };

/**
 * The guard's view of a request, the same for the proxy (pages) and the route wrappers (API): the headers as they
 * came, the ?token= of a page load, and the server's token and names.
 */
export function guardInputOf(
  request: { method: string; pathname: string; headers: Headers; queryToken: string | null },
  server: GuardServer,
): GuardInput {
  const { headers } = request;
  const jar = parseCookies(headers.get("cookie"));
  const host = server.host.trim();
  return {
    method: request.method,
    pathname: request.pathname,
    host: headers.get("host"),
    origin: headers.get("origin"),
    secFetchSite: headers.get("sec-fetch-site"),
    authorization: headers.get("authorization"),
    cookieToken: jar.get(OPERATOR_COOKIE) ?? null,
    sessionCookie: hasSessionCookie(jar),
    queryToken: request.queryToken,
    token: server.token,
    allowedHosts: host ? [...server.allowedHosts, host] : server.allowedHosts,
  };
}

/**
 * Pure request check, run before any route (by the proxy for pages, by the route wrappers for the API): the Host must be one this server answers to, a closed path needs a
 * credential presented (which the route then checks: a token's hash, a signed session cookie), and anything
 * that changes state must come from the same origin. A page without one goes to sign-in (`sign_in_required`).
 * `fromQuery`: the operator token came as ?token= on a page load (the caller moves it into a cookie).
 */
export function guardRequest(input: GuardInput): GuardVerdict {
  if (!hostAllowed(input.host, input.allowedHosts)) return { ok: false, code: "host_not_allowed" };
  const safe = SAFE_METHODS.has(input.method.toUpperCase());
  const bearer = bearerToken(input.authorization);
  if (input.authorization !== null && bearer === null) return { ok: false, code: "unauthorized" };
  const fromQuery =
    safe && bearer === null && !!input.token && !!input.queryToken && sameToken(input.queryToken, input.token);
  const presented = bearer !== null || input.cookieToken !== null || input.sessionCookie || fromQuery;
  if (!presented && !isOpenPath(input.pathname))
    return { ok: false, code: input.pathname.startsWith("/api/") || !safe ? "unauthorized" : "sign_in_required" };
  if (!safe) {
    if (input.secFetchSite && !["same-origin", "none"].includes(input.secFetchSite))
      return { ok: false, code: "origin_rejected" };
    if (input.origin) {
      let originHost: string;
      try {
        originHost = new URL(input.origin).host;
      } catch {
        return { ok: false, code: "origin_rejected" };
      }
      if (!input.host || originHost !== input.host) return { ok: false, code: "origin_rejected" };
    }
  }
  return { ok: true, fromQuery: fromQuery && input.cookieToken !== input.queryToken };
}

/**
 * Whether the browser reached us over TLS: directly, or through a reverse proxy that says so. A cookie set then
 * is `Secure` (never sent over plain http). A client that claims https when it is not only makes its cookie stricter.
 */
export function overTls(protocol: string, forwardedProto: string | null): boolean {
  return protocol === "https:" || forwardedProto?.split(",")[0]?.trim().toLowerCase() === "https";
}
