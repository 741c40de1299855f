import { describe, expect, it } from "vitest";
import { jwtPayload, localPath, ssoAdmission, ssoErrorMessage, ssoStartBody, verifiedClaims } from "./sso";

const jwt = (payload: unknown) =>
  `e30.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.signature-checked-by-better-auth`;

describe("what an ID token must say", () => {
  it("takes the subject and an email only when email_verified is exactly true", () => {
    const claims = { sub: "idp-1", email: "Ada@Example.com", email_verified: true, name: "Ada" };
    expect(verifiedClaims(jwtPayload(jwt(claims)))).toEqual({
      sub: "idp-1",
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada",
    });
    for (const verified of [false, "true", 1, undefined, null])
      expect(verifiedClaims({ ...claims, email_verified: verified })).toBeNull();
    expect(verifiedClaims({ ...claims, email: undefined })).toBeNull();
    expect(verifiedClaims({ ...claims, email: "not an email" })).toBeNull();
    expect(verifiedClaims({ ...claims, sub: "" })).toBeNull();
    expect(verifiedClaims({ ...claims, sub: 42 })).toBeNull();
  });

  it("reads a payload with non-ASCII names, and nothing from a malformed token", () => {
    expect(jwtPayload(jwt({ sub: "s", name: "Zoë Ōtsuka" }))?.name).toBe("Zoë Ōtsuka");
    expect(jwtPayload("only-one-part")).toBeNull();
    expect(jwtPayload("a.%%%.c")).toBeNull();
    expect(jwtPayload(jwt([1, 2]))).toBeNull();
    expect(jwtPayload(jwt("text"))).toBeNull();
  });
});

describe("who may come in through SSO", () => {
  it("an active person an owner added; no one else", () => {
    expect(ssoAdmission({ deactivatedAt: null })).toBeNull();
    expect(ssoAdmission({ deactivatedAt: new Date() })).toBe("account_deactivated");
    expect(ssoAdmission(null)).toBe("no_account");
  });

  it("says why on the sign-in page in our words, never the provider's", () => {
    expect(ssoErrorMessage("signup_disabled")).toMatch(/Ask an owner to add you/);
    expect(ssoErrorMessage("ACCOUNT_DEACTIVATED")).toMatch(/deactivated/);
    expect(ssoErrorMessage("unable_to_get_user_info")).toMatch(/verified email/);
    expect(ssoErrorMessage("<script>alert(1)</script>")).toMatch(/did not complete/);
    expect(ssoErrorMessage(undefined)).toBeNull();
  });
});

describe("the start route's body", () => {
  it("keeps the provider and two local paths, and always disables better-auth's redirect", () => {
    expect(
      ssoStartBody({ provider: "oidc", callbackURL: "/sessions/s1?tab=plan", errorCallbackURL: "/sign-in" }),
    ).toEqual({
      provider: "oidc",
      callbackURL: "/sessions/s1?tab=plan",
      errorCallbackURL: "/sign-in",
      disableRedirect: true,
    });
    // Another origin is not a place to go after signing in.
    expect(ssoStartBody({ provider: "oidc", callbackURL: "https://evil.test/" })?.callbackURL).toBe("/");
  });

  it.each([
    [{ provider: "oidc", idToken: { token: "x.y.z" } }],
    [{ provider: "oidc", requestSignUp: true }],
    [{ provider: "oidc", scopes: ["offline_access"] }],
    [{ provider: "oidc", additionalParams: { prompt: "none" } }],
    [{ provider: "oidc", newUserCallbackURL: "/" }],
    [{ provider: "github" }],
    [null],
    [["oidc"]],
  ])("refuses %j", (raw) => {
    expect(ssoStartBody(raw)).toBeNull();
  });

  it.each([
    ["/sessions/x", "/sessions/x"],
    ["//evil.test/", "/"],
    ["/\\evil.test", "/"],
    ["https://evil.test", "/"],
    ["/a b", "/"],
    [42, "/"],
  ])("localPath(%j) → %s", (value, expected) => {
    expect(localPath(value)).toBe(expected);
  });
});
