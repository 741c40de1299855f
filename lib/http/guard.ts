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
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Pure request check: token when one is configured, and same-origin for anything that changes state. */
export function guardRequest(input: GuardInput): { ok: true; setCookie: boolean } | { ok: false; code: ErrorCode } {
  let setCookie = false;
  if (input.token && input.pathname !== "/api/health") {
    const bearer = input.authorization?.replace(/^Bearer\s+/i, "") ?? null;
    const presented = bearer ?? input.cookieToken ?? input.queryToken;
    if (!presented || !sameToken(presented, input.token)) return { ok: false, code: "unauthorized" };
    setCookie = presented === input.queryToken && presented !== input.cookieToken;
  }
  if (!SAFE_METHODS.has(input.method.toUpperCase())) {
    if (input.secFetchSite && !["same-origin", "none"].includes(input.secFetchSite)) return { ok: false, code: "origin_rejected" };
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
  return { ok: true, setCookie };
}
