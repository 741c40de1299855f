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
  token: undefined,
};
const TOKEN = "t".repeat(20);

describe("guardRequest", () => {
  it.each<[string, Partial<GuardInput>, boolean | string]>([
    ["plain GET without token config", {}, true],
    ["same-origin POST", { method: "POST", origin: "http://127.0.0.1:3000" }, true],
    ["POST without Origin (curl, tests)", { method: "POST" }, true],
    ["cross-origin POST", { method: "POST", origin: "http://evil.example" }, "origin_rejected"],
    ["cross-port POST", { method: "POST", origin: "http://127.0.0.1:4000" }, "origin_rejected"],
    ["garbage Origin", { method: "DELETE", origin: "not a url" }, "origin_rejected"],
    ["cross-site fetch metadata", { method: "POST", secFetchSite: "cross-site" }, "origin_rejected"],
    ["same-site is not same-origin", { method: "PATCH", secFetchSite: "same-site" }, "origin_rejected"],
    ["cross-origin GET is fine", { origin: "http://evil.example" }, true],
    ["token required and missing", { token: TOKEN }, "unauthorized"],
    ["token wrong", { token: TOKEN, authorization: `Bearer ${"x".repeat(20)}` }, "unauthorized"],
    ["bearer token", { token: TOKEN, authorization: `Bearer ${TOKEN}` }, true],
    ["cookie token", { token: TOKEN, cookieToken: TOKEN }, true],
    ["query token on a page load", { token: TOKEN, queryToken: TOKEN }, true],
    ["query token on a POST", { token: TOKEN, queryToken: TOKEN, method: "POST" }, "unauthorized"],
    ["token without the Bearer scheme", { token: TOKEN, authorization: TOKEN }, "unauthorized"],
    ["Basic scheme", { token: TOKEN, authorization: `Basic ${TOKEN}` }, "unauthorized"],
    ["a shorter wrong token", { token: TOKEN, authorization: "Bearer t" }, "unauthorized"],
    ["a longer wrong token", { token: TOKEN, authorization: `Bearer ${TOKEN}x` }, "unauthorized"],
    ["DNS rebinding: a foreign host name", { host: "rebind.test:3000" }, "host_not_allowed"],
    [
      "a foreign host name even with the token",
      { host: "rebind.test", token: TOKEN, cookieToken: TOKEN },
      "host_not_allowed",
    ],
    ["no Host header", { host: null }, "host_not_allowed"],
    ["localhost", { host: "localhost:3000" }, true],
    ["IPv6 loopback", { host: "[::1]:3000" }, true],
    ["a LAN address (an IP literal cannot be rebound)", { host: "192.168.1.20:3000" }, true],
    ["a configured name", { host: "plangate.example.com", allowedHosts: ["plangate.example.com"] }, true],
    ["a garbage Host", { host: "a b" }, "host_not_allowed"],
    ["health needs no token", { token: TOKEN, pathname: "/api/health" }, true],
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
