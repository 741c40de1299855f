import { APICallError, InvalidResponseDataError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { classifyModelError, describeModelError, retryAfterMs, StreamCut, type ModelFault } from "./model-errors";

const apiError = (
  statusCode: number | undefined,
  message: string,
  more: { headers?: Record<string, string>; body?: string } = {},
) =>
  new APICallError({
    message,
    url: "http://x/v1/messages",
    requestBodyValues: {},
    statusCode,
    isRetryable: statusCode === undefined,
    responseHeaders: more.headers,
    responseBody: more.body,
  });
const reset = () =>
  new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });

describe("describeModelError", () => {
  it.each<[unknown, string, RegExp]>([
    [
      apiError(401, "invalid x-api-key"),
      "anthropic:claude-x",
      /refused the key \(401: invalid x-api-key\)\. Check ANTHROPIC_API_KEY\.$/,
    ],
    [apiError(403, "forbidden"), "openai:gpt-x", /refused the key \(403: forbidden\)\. Check OPENAI_API_KEY\.$/],
    [apiError(401, "no"), "openai-compatible:llama", /Check PLANGATE_API_KEY and PLANGATE_BASE_URL\.$/],
    [
      apiError(404, "model: claude-nope"),
      "anthropic:claude-nope",
      /does not know the model "claude-nope".*Check the session's model \(PLANGATE_MODEL for new sessions\) and ANTHROPIC_BASE_URL\.$/,
    ],
    [apiError(500, "overloaded"), "anthropic:claude-x", /^overloaded$/],
    [new Error("socket hang up"), "anthropic:claude-x", /^socket hang up$/],
    [apiError(401, "x"), "scripted", /^x$/],
  ])("%s with %s", (error, model, want) => {
    expect(describeModelError(error, model)).toMatch(want);
  });
});

describe("classifyModelError", () => {
  it.each<[string, unknown, ModelFault]>([
    [
      "429 with retry-after",
      apiError(429, "rate limited", { headers: { "retry-after": "3" } }),
      { kind: "retry", reason: "429 Too Many Requests", waitMs: 3000 },
    ],
    [
      "429 with retry-after-ms",
      apiError(429, "rate limited", { headers: { "Retry-After-Ms": "250", "retry-after": "9" } }),
      { kind: "retry", reason: "429 Too Many Requests", waitMs: 250 },
    ],
    ["500", apiError(500, "boom"), { kind: "retry", reason: "500 Internal Server Error", waitMs: undefined }],
    ["502", apiError(502, "bad gateway"), { kind: "retry", reason: "502 Bad Gateway", waitMs: undefined }],
    ["503", apiError(503, "unavailable"), { kind: "retry", reason: "503 Service Unavailable", waitMs: undefined }],
    [
      "529 (Anthropic overloaded)",
      apiError(529, "Overloaded"),
      { kind: "retry", reason: "529 Overloaded", waitMs: undefined },
    ],
    [
      "a connection the SDK could not make",
      apiError(undefined, "Cannot connect to API: read ECONNRESET"),
      { kind: "retry", reason: "the connection failed" },
    ],
    [
      "a body cut while it streamed (the SDK's wrapping)",
      new APICallError({
        message: "Failed to process successful response",
        url: "u",
        requestBodyValues: {},
        statusCode: 200,
        cause: new TypeError("terminated"),
      }),
      { kind: "retry", reason: "the connection was cut" },
    ],
    [
      "a 200 that failed otherwise",
      new APICallError({
        message: "Failed to process successful response",
        url: "u",
        requestBodyValues: {},
        statusCode: 200,
        cause: new SyntaxError("bad json"),
      }),
      { kind: "fatal" },
    ],
    ["a reset under the SDK", reset(), { kind: "retry", reason: "the connection was cut" }],
    ["undici's terminated body", new TypeError("terminated"), { kind: "retry", reason: "the connection was cut" }],
    [
      "a stream with no finish",
      new StreamCut("no finish"),
      { kind: "retry", reason: "the response stream ended early (no finish)" },
    ],
    [
      "OpenAI-compatible stream with no finish reason",
      new InvalidResponseDataError({ data: undefined, message: "Response stream ended without a finish reason." }),
      { kind: "retry", reason: "the response stream ended early" },
    ],
    [
      "Anthropic's mid-stream overload",
      { type: "overloaded_error", message: "Overloaded" },
      { kind: "retry", reason: "overloaded error" },
    ],
    [
      "Anthropic prompt too long",
      apiError(400, "prompt is too long: 210000 tokens > 200000 maximum"),
      { kind: "overflow", reason: "prompt is too long: 210000 tokens > 200000 maximum" },
    ],
    [
      "OpenAI context_length_exceeded (in the body)",
      apiError(400, "Bad request", { body: '{"error":{"code":"context_length_exceeded"}}' }),
      { kind: "overflow", reason: "Bad request" },
    ],
    ["a plain 400", apiError(400, "messages: field required"), { kind: "fatal" }],
    ["401", apiError(401, "invalid x-api-key"), { kind: "fatal" }],
    ["404", apiError(404, "model not found"), { kind: "fatal" }],
    ["a bug", new RangeError("index out of range"), { kind: "fatal" }],
  ])("%s", (_name, error, want) => {
    expect(classifyModelError(error)).toEqual(want);
  });
});

describe("retryAfterMs", () => {
  const now = Date.parse("2026-12-01T10:00:00Z");
  it.each<[Record<string, string> | undefined, number | undefined]>([
    [undefined, undefined],
    [{}, undefined],
    [{ "retry-after": "2" }, 2000],
    [{ "retry-after": "0.5" }, 500],
    [{ "retry-after": "Tue, 01 Dec 2026 10:00:07 GMT" }, 7000],
    [{ "retry-after": "Tue, 01 Dec 2026 09:00:00 GMT" }, 0],
    [{ "retry-after": "soon" }, undefined],
    [{ "retry-after-ms": "120" }, 120],
    [{ "retry-after-ms": "x", "retry-after": "1" }, 1000],
  ])("%j", (headers, want) => {
    expect(retryAfterMs(headers, now)).toBe(want);
  });
});
