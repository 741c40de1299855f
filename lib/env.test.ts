import { describe, expect, it } from "vitest";
import { isLoopbackHost, parseEnv } from "./env";

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
      DATABASE_URL: "file:./data/plangate.db",
      HOST: "127.0.0.1",
      PORT: 3000,
      dataDir: "/srv/app/data",
    });
    expect(env.workspaceRoots).toEqual(["/srv/app/data/workspaces"]);
  });

  it.each([
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
