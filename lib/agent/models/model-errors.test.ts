import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { describeModelError } from "./model-errors";

const apiError = (statusCode: number, message: string) =>
  new APICallError({ message, url: "http://x/v1/messages", requestBodyValues: {}, statusCode, isRetryable: false });

describe("describeModelError", () => {
  it.each<[unknown, string, RegExp]>([
    [apiError(401, "invalid x-api-key"), "anthropic:claude-x", /refused the key \(401: invalid x-api-key\)\. Check ANTHROPIC_API_KEY\.$/],
    [apiError(403, "forbidden"), "openai:gpt-x", /refused the key \(403: forbidden\)\. Check OPENAI_API_KEY\.$/],
    [apiError(401, "no"), "openai-compatible:llama", /Check PLANGATE_API_KEY and PLANGATE_BASE_URL\.$/],
    [apiError(404, "model: claude-nope"), "anthropic:claude-nope", /does not know the model "claude-nope".*Check the session's model \(PLANGATE_MODEL for new sessions\) and ANTHROPIC_BASE_URL\.$/],
    [apiError(500, "overloaded"), "anthropic:claude-x", /^overloaded$/],
    [new Error("socket hang up"), "anthropic:claude-x", /^socket hang up$/],
    [apiError(401, "x"), "scripted", /^x$/],
  ])("%s with %s", (error, model, want) => {
    expect(describeModelError(error, model)).toMatch(want);
  });
});
