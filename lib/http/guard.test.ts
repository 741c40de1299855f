import { describe, expect, it } from "vitest";
import { guardRequest, type GuardInput } from "./guard";

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
    ["query token", { token: TOKEN, queryToken: TOKEN }, true],
    ["health needs no token", { token: TOKEN, pathname: "/api/health" }, true],
    ["token does not excuse cross-origin POST", { token: TOKEN, cookieToken: TOKEN, method: "POST", origin: "http://evil.example" }, "origin_rejected"],
  ])("%s", (_name, patch, expected) => {
    const verdict = guardRequest({ ...base, ...patch });
    if (expected === true) expect(verdict.ok).toBe(true);
    else expect(verdict).toEqual({ ok: false, code: expected });
  });

  it("sets the cookie only when the token came in the query", () => {
    expect(guardRequest({ ...base, token: TOKEN, queryToken: TOKEN })).toEqual({ ok: true, setCookie: true });
    expect(guardRequest({ ...base, token: TOKEN, authorization: `Bearer ${TOKEN}` })).toEqual({ ok: true, setCookie: false });
  });
});
