import { describe, expect, it } from "vitest";
import { guardRequest, overTls, type GuardInput } from "./guard";

const base: GuardInput = {
  method: "GET",
  pathname: "/",
  host: "127.0.0.1:3000",
  origin: null,
  secFetchSite: null,
  authorization: null,
  cookieToken: null,
  queryToken: null,
  sessionCookie: false,
  token: undefined,
};
const OPEN = { pathname: "/api/health" };
const SIGNED_IN = { sessionCookie: true };
const TOKEN = "t".repeat(20);

describe("guardRequest", () => {
  it.each<[string, Partial<GuardInput>, boolean | string]>([
    ["a page without any credential goes to sign-in", {}, "sign_in_required"],
    ["an API GET without any credential", { pathname: "/api/sessions" }, "unauthorized"],
    ["a POST without any credential", { method: "POST", pathname: "/" }, "unauthorized"],
    ["health is open", OPEN, true],
    ["sign-in is open", { pathname: "/sign-in" }, true],
    ["better-auth's routes are open (they check their own)", { pathname: "/api/auth/sign-in/email" }, true],
    ["a one-time link is open", { pathname: "/link/abc" }, true],
    ["the CLI file is open", { pathname: "/cli/plangate.mjs" }, true],
    ["a session cookie goes on to the route's check", SIGNED_IN, true],
    ["a bearer token goes on to the route's check", { authorization: "Bearer anything" }, true],
    ["same-origin POST", { ...SIGNED_IN, method: "POST", origin: "http://127.0.0.1:3000" }, true],
    ["POST without Origin (curl, tests)", { ...SIGNED_IN, method: "POST" }, true],
    ["cross-origin POST", { ...SIGNED_IN, method: "POST", origin: "http://evil.example" }, "origin_rejected"],
    ["cross-port POST", { ...SIGNED_IN, method: "POST", origin: "http://127.0.0.1:4000" }, "origin_rejected"],
    ["garbage Origin", { ...SIGNED_IN, method: "DELETE", origin: "not a url" }, "origin_rejected"],
    ["cross-site fetch metadata", { ...SIGNED_IN, method: "POST", secFetchSite: "cross-site" }, "origin_rejected"],
    ["same-site is not same-origin", { ...SIGNED_IN, method: "PATCH", secFetchSite: "same-site" }, "origin_rejected"],
    [
      "a cross-site sign-in attempt",
      { method: "POST", pathname: "/api/auth/sign-in/email", origin: "http://evil.example" },
      "origin_rejected",
    ],
    ["cross-origin GET is fine", { ...SIGNED_IN, origin: "http://evil.example" }, true],
    ["cookie token", { token: TOKEN, cookieToken: TOKEN }, true],
    ["query token on a page load", { token: TOKEN, queryToken: TOKEN }, true],
    ["a wrong query token presents nothing", { token: TOKEN, queryToken: "x".repeat(20) }, "sign_in_required"],
    ["query token on a POST presents nothing", { token: TOKEN, queryToken: TOKEN, method: "POST" }, "unauthorized"],
    ["token without the Bearer scheme", { token: TOKEN, authorization: TOKEN }, "unauthorized"],
    ["Basic scheme", { token: TOKEN, authorization: `Basic ${TOKEN}` }, "unauthorized"],
    ["DNS rebinding: a foreign host name", { host: "rebind.test:3000" }, "host_not_allowed"],
    [
      "a foreign host name even with the token",
      { host: "rebind.test", token: TOKEN, cookieToken: TOKEN },
      "host_not_allowed",
    ],
    ["no Host header", { host: null }, "host_not_allowed"],
    ["localhost", { ...OPEN, host: "localhost:3000" }, true],
    ["IPv6 loopback", { ...OPEN, host: "[::1]:3000" }, true],
    ["a LAN address (an IP literal cannot be rebound)", { ...OPEN, host: "192.168.1.20:3000" }, true],
    ["a configured name", { ...OPEN, host: "plangate.example.com", allowedHosts: ["plangate.example.com"] }, true],
    ["a garbage Host", { host: "a b" }, "host_not_allowed"],
    [
      "token does not excuse cross-origin POST",
      { token: TOKEN, cookieToken: TOKEN, method: "POST", origin: "http://evil.example" },
      "origin_rejected",
    ],
  ])("%s", (_name, patch, expected) => {
    const verdict = guardRequest({ ...base, ...patch });
    if (expected === true) expect(verdict.ok).toBe(true);
    else expect(verdict).toEqual({ ok: false, code: expected });
  });

  it("says when the token came in the query (the proxy then sets the cookie and redirects it away)", () => {
    expect(guardRequest({ ...base, token: TOKEN, queryToken: TOKEN })).toEqual({ ok: true, fromQuery: true });
    expect(guardRequest({ ...base, token: TOKEN, authorization: `Bearer ${TOKEN}` })).toEqual({
      ok: true,
      fromQuery: false,
    });
    expect(guardRequest({ ...base, token: TOKEN, cookieToken: TOKEN, queryToken: TOKEN })).toEqual({
      ok: true,
      fromQuery: false,
    });
  });
});

describe("overTls", () => {
  it.each<[string, string | null, boolean]>([
    ["https:", null, true],
    ["http:", "https", true],
    ["http:", "https, http", true],
    ["http:", "HTTPS", true],
    ["http:", "http", false],
    ["http:", null, false],
    ["http:", "http, https", false],
  ])("%s behind %s → %s", (protocol, forwarded, tls) => {
    expect(overTls(protocol, forwarded)).toBe(tls);
  });
});
