import { APICallError, InvalidResponseDataError } from "@ai-sdk/provider";
import { parseModelName } from "./resolve-model";

// The settings a person fixes for each provider: the key, then where it points.
const SETTINGS: Record<string, { key: string; url: string }> = {
  anthropic: { key: "ANTHROPIC_API_KEY", url: "ANTHROPIC_BASE_URL" },
  openai: { key: "OPENAI_API_KEY", url: "OPENAI_BASE_URL" },
  "openai-compatible": { key: "PLANGATE_API_KEY", url: "PLANGATE_BASE_URL" },
};

/**
 * Pure: what a person reads when a model request failed for good. A provider that refuses the key (401/403) or
 * does not know the model (404) is named with the setting to fix; anything else keeps the provider's message.
 */
export function describeModelError(error: unknown, modelName: string): string {
  const message = messageOf(error);
  if (!APICallError.isInstance(error)) return message;
  const { provider, id } = parseModelName(modelName);
  const setting = SETTINGS[provider];
  if (!setting) return message;
  if (error.statusCode === 401 || error.statusCode === 403) {
    return `the ${provider} API refused the key (${error.statusCode}: ${message}). Check ${setting.key}${provider === "openai-compatible" ? ` and ${setting.url}` : ""}.`;
  }
  if (error.statusCode === 404) {
    return `the ${provider} API does not know the model "${id}" or the address (404: ${message}). Check the session's model (PLANGATE_MODEL for new sessions) and ${setting.url}.`;
  }
  return message;
}

/** An Error's message, or the message of an error object a provider sent in its stream. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null) {
    const { type, message } = error as { type?: unknown; message?: unknown };
    if (typeof message === "string") return typeof type === "string" ? `${type}: ${message}` : message;
  }
  return String(error);
}

/** A streamed response that ended before the provider said it was complete (no finish): nothing of it counts. */
export class StreamCut extends Error {
  constructor(detail: string) {
    super(`the response stream ended early (${detail})`);
    this.name = "StreamCut";
  }
}

/** What to do about a failed model request: try again (after waitMs when the provider said), compact, or stop. */
export type ModelFault =
  | { kind: "retry"; reason: string; waitMs?: number }
  | { kind: "overflow"; reason: string }
  | { kind: "fatal" };

// 408 timeout, 409 conflict (OpenAI: lock contention), 425 too early, 429 rate limit, 5xx, 529 Anthropic overloaded.
const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);
const STATUS_TEXT: Record<number, string> = {
  408: "Request Timeout",
  409: "Conflict",
  425: "Too Early",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  529: "Overloaded",
};
// How providers say the prompt does not fit: Anthropic "prompt is too long", OpenAI context_length_exceeded,
// vLLM / llama.cpp / Ollama "maximum context length", "exceeds the context window".
const OVERFLOW =
  /prompt is too long|context[_ ]length[_ ]exceeded|maximum context length|context window|too many tokens|input is too long|exceed_context_size/i;
// Anthropic's mid-stream `event: error` types worth another try.
const RETRY_STREAM_TYPES = new Set(["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]);
// A connection cut by the network or the server (undici's codes and messages).
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const NETWORK_MESSAGES = /^(terminated|fetch failed|other side closed|socket hang up)$|^Cannot connect to API/i;

function networkCut(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if ((typeof code === "string" && NETWORK_CODES.has(code)) || NETWORK_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** retry-after-ms (OpenAI), then retry-after in seconds or as an HTTP date (RFC 9110). */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = get("retry-after");
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Pure: how a failed model request is handled. An abort is never classified (the caller stops first). */
export function classifyModelError(error: unknown): ModelFault {
  if (error instanceof StreamCut) return { kind: "retry", reason: error.message };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const said = `${error.message} ${error.responseBody ?? ""}`;
    if ((status === 400 || status === 413) && OVERFLOW.test(said)) return { kind: "overflow", reason: error.message };
    if (status !== undefined && RETRY_STATUSES.has(status)) {
      return {
        kind: "retry",
        reason: `${status} ${STATUS_TEXT[status] ?? ""}`.trim(),
        waitMs: retryAfterMs(error.responseHeaders),
      };
    }
    // No status: the connection failed before an answer. A 2xx: the answer's body was cut while it streamed.
    if (status === undefined && (error.isRetryable || networkCut(error)))
      return { kind: "retry", reason: "the connection failed" };
    if (status !== undefined && status < 300 && (error.isRetryable || networkCut(error)))
      return { kind: "retry", reason: "the connection was cut" };
    return { kind: "fatal" };
  }
  if (InvalidResponseDataError.isInstance(error) && /without a finish reason/i.test(error.message)) {
    return { kind: "retry", reason: "the response stream ended early" };
  }
  // Anthropic sends some failures inside a 200 stream as an error event ({type: "overloaded_error", …}).
  const type = typeof error === "object" && error !== null ? (error as { type?: unknown }).type : undefined;
  if (typeof type === "string" && RETRY_STREAM_TYPES.has(type))
    return { kind: "retry", reason: type.replace(/_/g, " ") };
  if (networkCut(error)) return { kind: "retry", reason: "the connection was cut" };
  return { kind: "fatal" };
}
