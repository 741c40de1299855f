// How the fake Anthropic API writes its answers: a message (as JSON or as the SSE stream the Messages API sends)
// and the faults a test scripts in place of one.
import type http from "node:http";
import type { ConnectionWatch } from "./fake-connections";
import type { MessagesRequest, ScriptBlock } from "./fake-anthropic";

let idCounter = 0;
export const newId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++idCounter).toString(36).padStart(6, "0")}`;

/**
 * A provider fault served in place of a turn (it consumes one main request, so an SDK retry takes the next turn).
 * - status: an HTTP error; the default body is Anthropic's error JSON for the status; a string body goes verbatim.
 * - reset: the socket is destroyed before any byte of the response.
 * - cut: the blocks stream, but the first tool_use input stops after atJsonChar characters, with no
 *   content_block_stop, message_delta or message_stop; clean ends the HTTP response, otherwise the socket dies.
 * - stream-error: message_start and the text blocks stream, then an SSE `event: error`, then the end; with no
 *   text block the error is the only event (no message_start).
 * - hold: 200, message_start and the text as text_deltas, then silence until the client hangs up.
 * cut and stream-error need `stream: true`; hold without it sends only the headers.
 */
export type Fault =
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: "reset" }
  | { kind: "cut"; blocks: ScriptBlock[]; atJsonChar: number; clean?: boolean }
  | { kind: "stream-error"; blocks: ScriptBlock[]; error: { type: string; message: string } }
  | { kind: "hold"; text: string };

export function sendJson(res: http.ServerResponse, status: number, value: unknown) {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
  res.end(text);
}

export function estimateTokens(body: MessagesRequest | null): number {
  return Math.max(1, Math.ceil(JSON.stringify(body ?? {}).length / 4));
}

interface OutBlock {
  type: "text" | "tool_use";
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
}

function toOut(blocks: ScriptBlock[]): OutBlock[] {
  return blocks.map((b) =>
    b.type === "text"
      ? { type: "text", text: b.text }
      : { type: "tool_use", id: b.id ?? newId("toolu"), name: b.name, input: b.input },
  );
}

function buildMessage(body: MessagesRequest, blocks: ScriptBlock[]) {
  const content = toOut(blocks);
  const stopReason = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  const outputTokens = Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
  const usage = {
    input_tokens: estimateTokens(body),
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  const message = {
    id: newId("msg"),
    type: "message",
    role: "assistant",
    model: body.model ?? "claude-fake",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
  return { content, stopReason, outputTokens, usage, message };
}

type Emit = (type: string, data: Record<string, unknown>) => boolean;

/** Writes the SSE head and message_start; returns the event writer. */
function openStream(res: http.ServerResponse, built: ReturnType<typeof buildMessage>): Emit {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "request-id": newId("req"),
  });
  const event: Emit = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", {
    message: { ...built.message, content: [], stop_reason: null, usage: { ...built.usage, output_tokens: 1 } },
  });
  event("ping", {});
  return event;
}

/** Streams one block; with cutAt the block stays open (no content_block_stop) and a tool_use input stops after cutAt characters. */
function streamBlock(event: Emit, block: OutBlock, index: number, cutAt?: number) {
  if (block.type === "text") {
    event("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of split(block.text ?? "", 40))
      event("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
  } else {
    event("content_block_start", {
      index,
      content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
    });
    const json = JSON.stringify(block.input ?? {});
    for (const piece of split(cutAt === undefined ? json : json.slice(0, cutAt), 40))
      event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
  }
  if (cutAt === undefined) event("content_block_stop", { index });
}

export function sendMessage(res: http.ServerResponse, body: MessagesRequest, blocks: ScriptBlock[]) {
  const built = buildMessage(body, blocks);
  if (!body.stream) return sendJson(res, 200, built.message);
  const event = openStream(res, built);
  built.content.forEach((block, index) => streamBlock(event, block, index));
  event("message_delta", {
    delta: { stop_reason: built.stopReason, stop_sequence: null },
    usage: { output_tokens: built.outputTokens },
  });
  event("message_stop", {});
  res.end();
}

// ---- faults ----

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

export function validateFault(fault: Fault) {
  if (fault.kind !== "cut") return;
  const tool = fault.blocks.find((b) => b.type === "tool_use");
  if (!tool) throw new Error("fake-anthropic: a cut fault needs a tool_use block to cut");
  const length = JSON.stringify(tool.input).length;
  if (!(fault.atJsonChar >= 0 && fault.atJsonChar <= length))
    throw new Error(`fake-anthropic: cut atJsonChar ${fault.atJsonChar} is outside the input JSON (0..${length})`);
}

export function sendFault(res: http.ServerResponse, body: MessagesRequest, fault: Fault, connections: ConnectionWatch) {
  if (fault.kind === "status") {
    const type = errorTypes[fault.status] ?? (fault.status >= 500 ? "api_error" : "invalid_request_error");
    const payload = fault.body ?? {
      type: "error",
      error: { type, message: `fake-anthropic: injected ${fault.status} ${type}` },
    };
    const raw = typeof payload === "string";
    res.writeHead(fault.status, {
      "content-type": raw ? "text/plain" : "application/json",
      "request-id": newId("req"),
      ...fault.headers,
    });
    return void res.end(raw ? payload : JSON.stringify(payload));
  }
  if (fault.kind === "reset") return connections.drop(res);
  if (fault.kind === "hold" && !body.stream)
    return void res.writeHead(200, { "content-type": "application/json", "request-id": newId("req") }).flushHeaders();
  if (fault.kind === "hold")
    return void streamBlock(openStream(res, buildMessage(body, [])), { type: "text", text: fault.text }, 0, 0);
  if (!body.stream) throw new Error(`fake-anthropic: the ${fault.kind} fault needs a streaming request`);
  if (fault.kind === "stream-error") {
    const text = fault.blocks.filter((b) => b.type === "text");
    // With no text the error is the first event, as when the API is overloaded at once; the SDK handles that case apart.
    if (text.length === 0) {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "request-id": newId("req"),
      });
      return void res.end(`event: error\ndata: ${JSON.stringify({ type: "error", error: fault.error })}\n\n`);
    }
    const event = openStream(res, buildMessage(body, text));
    toOut(text).forEach((block, index) => streamBlock(event, block, index));
    event("error", { error: fault.error });
    return void res.end();
  }
  validateFault(fault);
  const built = buildMessage(body, fault.blocks);
  const event = openStream(res, built);
  const cutIndex = built.content.findIndex((b) => b.type === "tool_use");
  built.content
    .slice(0, cutIndex + 1)
    .forEach((block, index) => streamBlock(event, block, index, index === cutIndex ? fault.atJsonChar : undefined));
  if (fault.clean) res.end();
  else connections.dropAfterFlush(res);
}

function split(text: string, size: number): string[] {
  if (text.length === 0) return [""];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
