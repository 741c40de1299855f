import { describe, expect, it } from "vitest";
import { EnvError, envValue, isLoopbackHost, parseEnv } from "./env";

describe("isLoopbackHost", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["192.168.1.10", false],
    ["example.com", false],
    ["::", false],
  ])("%s → %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe("parseEnv", () => {
  it("defaults to SQLite under ./data, loopback and port 3000", () => {
    const env = parseEnv({}, "/srv/app");
    expect(env).toMatchObject({
      DATABASE_URL: "file:/srv/app/data/plangate.db",
      databaseUrlSet: false,
      HOST: "127.0.0.1",
      PORT: 3000,
      dataDir: "/srv/app/data",
    });
    expect(env.workspaceRoots).toEqual(["/srv/app/data/workspaces"]);
  });

  it("keeps the database in PLANGATE_DATA_DIR unless DATABASE_URL is set", () => {
    expect(parseEnv({ PLANGATE_DATA_DIR: "/var/lib/plangate" }, "/srv/app").DATABASE_URL).toBe(
      "file:/var/lib/plangate/plangate.db",
    );
    expect(parseEnv({ PLANGATE_DATA_DIR: "state" }, "/srv/app").DATABASE_URL).toBe("file:/srv/app/state/plangate.db");
    expect(parseEnv({ PLANGATE_DATA_DIR: "state", DATABASE_URL: "" }, "/srv/app").DATABASE_URL).toBe(
      "file:/srv/app/state/plangate.db",
    );
    const set = parseEnv({ PLANGATE_DATA_DIR: "/var/lib/plangate", DATABASE_URL: "file:./x.db" }, "/srv/app");
    expect(set).toMatchObject({ DATABASE_URL: "file:./x.db", databaseUrlSet: true });
  });

  it.each([
    [{ DATABASE_URL: "mysql://h/db" }, /DATABASE_URL must be file/],
    [{ HOST: "0.0.0.0" }, /Refusing to listen on 0\.0\.0\.0 without PLANGATE_TOKEN/],
    [{ HOST: "10.0.0.5", PLANGATE_TOKEN: "short" }, /at least 16 characters/],
    [{ PORT: "99999" }, /PORT/],
    [{ PORT: "abc" }, /PORT/],
    [{ PLANGATE_AUTO_GATE: "maybe" }, /PLANGATE_AUTO_GATE/],
    [{ PLANGATE_MODEL: "anthropic:claude-sonnet-4" }, /ANTHROPIC_API_KEY is required/],
    [{ PLANGATE_MODEL: "openai:gpt-5" }, /OPENAI_API_KEY is required/],
    [{ PLANGATE_MODEL: "openai-compatible:llama3" }, /PLANGATE_BASE_URL is required/],
    [{ PLANGATE_MODEL: "anthropic:" }, /needs a model id/],
    [{ PLANGATE_MODEL: "acme:x" }, /unknown model provider "acme"/],
    [{ PLANGATE_MODEL: "scripted" }, /PLANGATE_ALLOW_SCRIPTED=1/],
    [{ PLANGATE_MODEL: "openai-compatible:llama3", PLANGATE_BASE_URL: "not a url" }, /PLANGATE_BASE_URL/],
    [{ ANTHROPIC_BASE_URL: "not a url" }, /ANTHROPIC_BASE_URL must be an http\(s\) URL/],
    [{ OPENAI_BASE_URL: "ftp://127.0.0.1/v1" }, /OPENAI_BASE_URL must be an http\(s\) URL/],
  ])("refuses %j", (raw, message) => {
    expect(() => parseEnv(raw)).toThrow(message);
  });

  it.each([
    [{ PLANGATE_MODEL: "offline" }],
    [{ PLANGATE_MODEL: "anthropic:claude-sonnet-4", ANTHROPIC_API_KEY: "k" }],
    [{ PLANGATE_MODEL: "openai:gpt-5", OPENAI_API_KEY: "k" }],
    [
      {
        PLANGATE_MODEL: "anthropic:claude-sonnet-4",
        ANTHROPIC_API_KEY: "k",
        ANTHROPIC_BASE_URL: "https://gateway.example/anthropic",
      },
    ],
    [
      {
        PLANGATE_MODEL: "openai:gpt-5",
        OPENAI_API_KEY: "k",
        OPENAI_BASE_URL: "http://127.0.0.1:8080/v1",
        ANTHROPIC_BASE_URL: "",
      },
    ],
    [{ PLANGATE_MODEL: "openai-compatible:deepseek-chat", PLANGATE_BASE_URL: "http://127.0.0.1:11434/v1" }],
    [{ PLANGATE_MODEL: "scripted", PLANGATE_ALLOW_SCRIPTED: "1" }],
  ])("accepts model settings %j", (raw) => {
    expect(parseEnv(raw).PLANGATE_MODEL).toBe(raw.PLANGATE_MODEL);
  });

  it("accepts a non-loopback host with a token", () => {
    expect(parseEnv({ HOST: "0.0.0.0", PLANGATE_TOKEN: "x".repeat(24) }).HOST).toBe("0.0.0.0");
  });

  it("splits workspace roots and resolves them", () => {
    expect(parseEnv({ PLANGATE_WORKSPACE_ROOTS: "/a:rel/b" }, "/srv").workspaceRoots).toEqual(["/a", "/srv/rel/b"]);
  });

  it.each([
    ["1", true],
    ["true", true],
    ["0", false],
    [undefined, false],
  ])("PLANGATE_ALLOW_SCRIPTED=%s → %s", (value, expected) => {
    expect(parseEnv({ PLANGATE_ALLOW_SCRIPTED: value }).PLANGATE_ALLOW_SCRIPTED).toBe(expected);
  });
});

describe("the variables read outside lib/env.ts", () => {
  it("defaults: a pool of 10, the sandbox on, no extra host names", () => {
    expect(parseEnv({})).toMatchObject({ PLANGATE_PG_POOL: 10, PLANGATE_SANDBOX: "on", allowedHosts: [] });
  });

  it.each<[Record<string, string>, Record<string, unknown>]>([
    [{ PLANGATE_PG_POOL: "25" }, { PLANGATE_PG_POOL: 25 }],
    [{ PLANGATE_PG_POOL: "" }, { PLANGATE_PG_POOL: 10 }],
    [{ PLANGATE_SANDBOX: "off" }, { PLANGATE_SANDBOX: "off" }],
    [{ PLANGATE_SANDBOX: "on" }, { PLANGATE_SANDBOX: "on" }],
    [{ PLANGATE_SANDBOX: "" }, { PLANGATE_SANDBOX: "on" }],
    [
      { PLANGATE_ALLOWED_HOSTS: " Plangate.Example.com, review.internal ," },
      { allowedHosts: ["plangate.example.com", "review.internal"] },
    ],
  ])("accepts %j", (raw, want) => {
    expect(parseEnv(raw)).toMatchObject(want);
  });

  it.each([
    [{ PLANGATE_PG_POOL: "many" }, /PLANGATE_PG_POOL: a whole number of connections/],
    [{ PLANGATE_PG_POOL: "0" }, /PLANGATE_PG_POOL: a whole number of connections/],
    [{ PLANGATE_PG_POOL: "2.5" }, /PLANGATE_PG_POOL: a whole number of connections/],
    [{ PLANGATE_PG_POOL: "5000" }, /PLANGATE_PG_POOL: a whole number of connections/],
    // Any value but "off" used to leave the sandbox on, so "0" or "false" silently did the opposite of the intent.
    [{ PLANGATE_SANDBOX: "0" }, /PLANGATE_SANDBOX: must be "on" \(the default\) or "off"/],
    [{ PLANGATE_SANDBOX: "false" }, /PLANGATE_SANDBOX: must be "on" \(the default\) or "off"/],
    // A URL or a port never matched a Host header's name: the name was silently never answered.
    [{ PLANGATE_ALLOWED_HOSTS: "https://plangate.example.com" }, /PLANGATE_ALLOWED_HOSTS: a comma-separated list/],
    [{ PLANGATE_ALLOWED_HOSTS: "plangate.example.com:443" }, /PLANGATE_ALLOWED_HOSTS: a comma-separated list/],
    [{ PLANGATE_ALLOWED_HOSTS: "a.test,b test" }, /PLANGATE_ALLOWED_HOSTS: a comma-separated list/],
  ])("refuses %j at boot, naming the variable", (raw, message) => {
    expect(() => parseEnv(raw)).toThrow(EnvError);
    expect(() => parseEnv(raw)).toThrow(message);
  });

  it("envValue checks one variable with the same schema, whatever else the environment holds", () => {
    const elsewhere = { HOST: "0.0.0.0", PLANGATE_MODEL: "anthropic:x" };
    expect(envValue("PLANGATE_PG_POOL", { ...elsewhere, PLANGATE_PG_POOL: "3" })).toBe(3);
    expect(envValue("PLANGATE_PG_POOL", elsewhere)).toBe(10);
    expect(envValue("PLANGATE_SANDBOX", { PLANGATE_SANDBOX: "off" })).toBe("off");
    expect(() => envValue("PLANGATE_PG_POOL", { PLANGATE_PG_POOL: "-1" })).toThrow(
      /Invalid environment:\n {2}PLANGATE_PG_POOL: a whole number of connections/,
    );
    expect(() => envValue("PLANGATE_SANDBOX", { PLANGATE_SANDBOX: "no" })).toThrow(EnvError);
  });
});

describe("single sign-on (PLANGATE_OIDC_*)", () => {
  const oidc = {
    PLANGATE_OIDC_ISSUER: "https://id.example.com/realms/team",
    PLANGATE_OIDC_CLIENT_ID: "plangate",
    PLANGATE_OIDC_CLIENT_SECRET: "s3cret",
  };

  it("is off unless configured, and takes the issuer, client and an optional button name", () => {
    const off = parseEnv({});
    expect(off.PLANGATE_OIDC_ISSUER).toBeUndefined();
    expect(parseEnv({ PLANGATE_OIDC_ISSUER: "", PLANGATE_OIDC_CLIENT_ID: "" }).PLANGATE_OIDC_CLIENT_ID).toBeUndefined();
    expect(parseEnv({ ...oidc, PLANGATE_OIDC_NAME: " Okta " })).toMatchObject({ ...oidc, PLANGATE_OIDC_NAME: "Okta" });
    // A provider on the same machine (tests, a local Keycloak) may be plain http.
    expect(parseEnv({ ...oidc, PLANGATE_OIDC_ISSUER: "http://127.0.0.1:4320" }).PLANGATE_OIDC_ISSUER).toBe(
      "http://127.0.0.1:4320",
    );
  });

  it.each([
    // Half a configuration is a typo, not "SSO off".
    [{ PLANGATE_OIDC_ISSUER: oidc.PLANGATE_OIDC_ISSUER }, /PLANGATE_OIDC_CLIENT_ID: single sign-on needs/],
    [{ ...oidc, PLANGATE_OIDC_CLIENT_SECRET: "" }, /PLANGATE_OIDC_CLIENT_SECRET: single sign-on needs/],
    [{ PLANGATE_OIDC_CLIENT_ID: "plangate", PLANGATE_OIDC_CLIENT_SECRET: "s" }, /PLANGATE_OIDC_ISSUER: single sign-on/],
    // Tokens and the discovery document over plain http off this machine could be anyone's.
    [
      { ...oidc, PLANGATE_OIDC_ISSUER: "http://id.example.com" },
      /PLANGATE_OIDC_ISSUER: PLANGATE_OIDC_ISSUER must be https/,
    ],
    [{ ...oidc, PLANGATE_OIDC_ISSUER: "ftp://id.example.com" }, /PLANGATE_OIDC_ISSUER must be an http\(s\) URL/],
    [{ ...oidc, PLANGATE_OIDC_ISSUER: "https://id.example.com/?tenant=1" }, /no query or fragment/],
    [{ ...oidc, PLANGATE_OIDC_NAME: "x".repeat(61) }, /PLANGATE_OIDC_NAME must be at most 60/],
  ])("refuses %j at boot, naming the variable", (raw, message) => {
    expect(() => parseEnv(raw)).toThrow(EnvError);
    expect(() => parseEnv(raw)).toThrow(message);
  });
});

describe("email notices' variables (issue 46)", () => {
  const smtp = {
    PLANGATE_SMTP_URL: "smtp://user:pass@mail.example.com:587",
    PLANGATE_SMTP_FROM: "Plangate <p@example.com>",
  };

  it("takes both together, and links point at the public address or else HOST:PORT", () => {
    expect(parseEnv(smtp)).toMatchObject(smtp);
    expect(parseEnv({}).publicUrl).toBe("http://localhost:3000");
    expect(parseEnv({ PLANGATE_PUBLIC_URL: "https://plangate.example.com/" }).publicUrl).toBe(
      "https://plangate.example.com",
    );
    expect(parseEnv({ ...smtp, PLANGATE_SMTP_URL: "smtps://mail.example.com" }).PLANGATE_SMTP_URL).toBe(
      "smtps://mail.example.com",
    );
  });

  it.each([
    [{ PLANGATE_SMTP_URL: smtp.PLANGATE_SMTP_URL }, /PLANGATE_SMTP_FROM: email needs PLANGATE_SMTP_URL and/],
    [{ PLANGATE_SMTP_FROM: smtp.PLANGATE_SMTP_FROM }, /PLANGATE_SMTP_URL: email needs/],
    [{ ...smtp, PLANGATE_SMTP_URL: "http://mail.example.com" }, /PLANGATE_SMTP_URL must be smtp:\/\//],
    [{ ...smtp, PLANGATE_SMTP_FROM: "not an address" }, /PLANGATE_SMTP_FROM must be an address/],
    [{ ...smtp, PLANGATE_SMTP_FROM: "a@b.c\r\nBcc: x@evil.test" }, /PLANGATE_SMTP_FROM must be an address/],
    [{ PLANGATE_PUBLIC_URL: "javascript:alert(1)" }, /PLANGATE_PUBLIC_URL must be an http\(s\) URL/],
  ])("refuses %j at boot, naming the variable", (raw, message) => {
    expect(() => parseEnv(raw)).toThrow(message);
  });
});
