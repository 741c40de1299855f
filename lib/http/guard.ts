import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
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
  token: string | undefined;
  /** Host names (besides IP literals and localhost) this server answers to: PLANGATE_ALLOWED_HOSTS, the public URL's. */
  allowedHosts?: readonly string[];
};

export type GuardVerdict = { ok: true; fromQuery: boolean } | { ok: false; code: ErrorCode };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Equal tokens, in time that depends on neither their contents nor their lengths. */
export function sameToken(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}

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
 * Pure request check, run before any route: the Host must be one this server answers to, the token (when one
 * is configured) must be presented, and anything that changes state must come from the same origin.
 * `fromQuery`: the token came as ?token= (accepted on a page load only; the caller redirects it away).
 */
export function guardRequest(input: GuardInput): GuardVerdict {
  if (!hostAllowed(input.host, input.allowedHosts)) return { ok: false, code: "host_not_allowed" };
  const safe = SAFE_METHODS.has(input.method.toUpperCase());
  let fromQuery = false;
  if (input.token && input.pathname !== "/api/health") {
    const bearer = bearerToken(input.authorization);
    if (input.authorization !== null && bearer === null) return { ok: false, code: "unauthorized" };
    const query = safe ? input.queryToken : null;
    const presented = bearer ?? input.cookieToken ?? query;
    if (!presented || !sameToken(presented, input.token)) return { ok: false, code: "unauthorized" };
    fromQuery = presented === query && bearer === null && input.cookieToken !== presented;
  }
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
  return { ok: true, fromQuery };
}

/**
 * Whether the browser reached us over TLS: directly, or through a reverse proxy that says so. A cookie set then
 * is `Secure` (never sent over plain http). A client that claims https when it is not only makes its cookie stricter.
 */
export function overTls(protocol: string, forwardedProto: string | null): boolean {
  return protocol === "https:" || forwardedProto?.split(",")[0]?.trim().toLowerCase() === "https";
}
