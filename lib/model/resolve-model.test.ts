import { describe, expect, it } from "vitest";
import { anthropicBaseUrl, openaiBaseUrl, resolveModel } from "./resolve-model";

describe("resolveModel", () => {
  it.each([
    ["offline", {}, "offline"],
    ["scripted", {}, "scripted"],
    ["anthropic:claude-sonnet-4", { ANTHROPIC_API_KEY: "k" }, "anthropic.messages"],
    ["openai:gpt-5", { OPENAI_API_KEY: "k" }, "openai.responses"],
    ["openai-compatible:llama3", { PLANGATE_BASE_URL: "http://127.0.0.1:11434/v1" }, "openai-compatible.chat"],
  ])("%s builds an AI SDK v3 language model", (name, env, provider) => {
    const model = resolveModel(name, { env, stepIndex: 0 });
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider).toBe(provider);
  });

  it("refuses a provider without its key with a 400 naming it", () => {
    expect(() => resolveModel("anthropic:x", { env: {}, stepIndex: 0 })).toThrow(/ANTHROPIC_API_KEY/);
  });

  it.each([
    [undefined, "https://api.anthropic.com/v1"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1"],
    ["https://gw.example/anthropic/v1/", "https://gw.example/anthropic/v1"],
  ])("ANTHROPIC_BASE_URL %s: the provider posts to <%s>/messages", (value, base) => {
    expect(anthropicBaseUrl(value)).toBe(base);
  });

  it("OPENAI_BASE_URL is taken with its /v1, defaulting to api.openai.com", () => {
    expect(openaiBaseUrl(undefined)).toBe("https://api.openai.com/v1");
    expect(openaiBaseUrl("http://127.0.0.1:9000/v1/")).toBe("http://127.0.0.1:9000/v1");
  });
});
