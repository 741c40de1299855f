// A fake of the OpenAI Responses API (POST /v1/responses, streaming), the API @ai-sdk/openai 3.x calls for
// createOpenAI()(id). Each request takes the next scripted turn; every request is recorded with its headers and
// raw body. The stream follows the documented event sequence: response.created, response.in_progress, then per
// output item response.output_item.added, its deltas (response.output_text.delta or
// response.function_call_arguments.delta/done), response.output_item.done, and response.completed with usage.
// A script step may instead be a fault (an HTTP error, a reset, a stream cut mid-arguments, a hang), served in
// place of a turn.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { watchConnections, type ConnectionWatch } from "./fake-connections";
import { sendOpenAIError } from "./fake-openai";

export type ResponsesInputItem = {
  type?: string;
  role?: string;
  content?: string | Array<{ type: string; text?: string }>;
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: string | Array<{ type: string; text?: string }>;
  id?: string;
};
export type ResponsesRequest = {
  model: string;
  input: ResponsesInputItem[];
  instructions?: string;
  stream?: boolean;
  tools?: Array<{ type: string; name: string; description?: string; parameters?: unknown }>;
  [key: string]: unknown;
};
export type ResponsesToolCall = { name: string; args: Record<string, unknown>; id?: string };
export type ResponsesTurn = { text?: string; toolCalls?: ResponsesToolCall[] };
/**
 * A provider fault served in place of a turn (it consumes one request, so an SDK retry takes the next step).
 * - status: an HTTP error; the default body is OpenAI's {error: {message, type, code, param}}; a string goes verbatim.
 * - reset: the socket is destroyed before any byte of the response.
 * - cut: the text streams as a complete message item, then the first tool call's response.output_item.added and
 *   its response.function_call_arguments.delta events up to atJsonChar characters of JSON.stringify(args); no
 *   arguments.done, no output_item.done for it, no response.completed; clean ends the HTTP response, otherwise
 *   the socket dies. outOfTokens: the stream ends as the API does when max_output_tokens is reached inside the
 *   call (response.incomplete, reason max_output_tokens).
 * - hold: 200, response.created/in_progress, a message item and the text as response.output_text.delta events,
 *   then silence until the client hangs up.
 * cut and hold answer in SSE even to a non-streaming request.
 */
export type ResponsesFault =
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: "reset" }
  | {
      kind: "cut";
      toolCalls: ResponsesToolCall[];
      text?: string;
      atJsonChar: number;
      clean?: boolean;
      outOfTokens?: boolean;
    }
  | { kind: "hold"; text: string };
export type ResponsesScriptStep = ResponsesTurn | { fault: ResponsesFault };
/** turn: the index of the script step served (-1: the fallback text). fault: the fault served instead of a turn. */
export type ResponsesRecorded = {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: ResponsesRequest | null;
  turn?: number;
  fault?: ResponsesFault["kind"];
};

export type FakeOpenAIResponses = {
  /** Base URL including `/v1` (for OPENAI_BASE_URL). */
  url: string;
  requests: ResponsesRecorded[];
  /** Indexes into `requests` of every request whose connection the client closed before the response was complete. */
  closedEarly: number[];
  /** Resolves once request `index`'s connection was closed early by the client (rejects after timeoutMs, default 5000). */
  waitClosed: (index: number, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};

const partsText = (v: ResponsesInputItem["content"]): string =>
  typeof v === "string" ? v : Array.isArray(v) ? v.map((p) => p.text ?? "").join("") : "";

/** The instructions and every system/developer input item, as one string. */
export function responsesSystemText(body: ResponsesRequest | null): string {
  const items = (body?.input ?? []).filter((i) => i.role === "system" || i.role === "developer");
  return [body?.instructions ?? "", ...items.map((i) => partsText(i.content))].join("\n");
}

/** Every function_call_output item in the request, in order. */
export function responsesToolResults(body: ResponsesRequest | null): { callId: string; text: string }[] {
  return (body?.input ?? []).flatMap((i) =>
    i.type === "function_call_output" ? [{ callId: i.call_id ?? "", text: partsText(i.output) }] : [],
  );
}

export async function startFakeOpenAIResponses(
  turns: ResponsesScriptStep[],
  opts: { fallbackText?: string } = {},
): Promise<FakeOpenAIResponses> {
  turns.forEach(validateStep);
  const requests: ResponsesRecorded[] = [];
  const connections = watchConnections("fake-openai-responses");
  let next = 0;
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "").replace(/\?.*$/, "");
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: ResponsesRequest | null = null;
      try {
        body = raw ? (JSON.parse(raw) as ResponsesRequest) : null;
      } catch {
        body = null;
      }
      const rec: ResponsesRecorded = { path, headers: req.headers, raw, body };
      const index = requests.push(rec) - 1;
      connections.watch(res, index);
      if (req.method !== "POST" || path !== "/v1/responses" || !body) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: {
              message: `fake-openai-responses: no route ${req.method} ${path}`,
              type: "invalid_request_error",
              code: "not_found",
            },
          }),
        );
        return;
      }
      const step = turns[next];
      rec.turn = step ? next++ : -1;
      if (step && "fault" in step) {
        rec.fault = step.fault.kind;
        sendFault(res, body, step.fault, ++seq, connections);
      } else respond(res, body, step ?? { text: opts.fallbackText ?? "Done." }, ++seq);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    closedEarly: connections.closedEarly,
    waitClosed: connections.waitClosed,
    close: () =>
      new Promise((r) => {
        connections.closing();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type MessageItem = {
  type: "message";
  id: string;
  status: string;
  role: "assistant";
  content: { type: "output_text"; text: string; annotations: unknown[] }[];
};
type FunctionCallItem = {
  type: "function_call";
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: string;
};
type OutputItem = MessageItem | FunctionCallItem;

function messageItem(n: number, text: string): MessageItem {
  return {
    type: "message",
    id: `msg_fake${n}`,
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}
function functionCallItem(n: number, i: number, c: ResponsesToolCall): FunctionCallItem {
  return {
    type: "function_call",
    id: `fc_fake${n}_${i}`,
    call_id: c.id ?? `call_fake${n}_${i}`,
    name: c.name,
    arguments: JSON.stringify(c.args),
    status: "completed",
  };
}

/** Token counts estimated like the other fakes' (a quarter of the characters), so they grow with the conversation. */
function estimateUsage(body: ResponsesRequest, items: OutputItem[]) {
  const output = items.map((i) => (i.type === "message" ? (i.content[0]?.text ?? "") : i.name + i.arguments)).join("");
  const input_tokens = Math.ceil(JSON.stringify(body).length / 4);
  const output_tokens = Math.ceil(output.length / 4);
  return {
    input_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input_tokens + output_tokens,
  };
}

const responseObject =
  (body: ResponsesRequest, n: number, createdAt: number) =>
  (status: string, output: OutputItem[], extra: Record<string, unknown> = {}) => ({
    id: `resp_fake${n}`,
    object: "response",
    created_at: createdAt,
    status,
    model: body.model,
    output,
    incomplete_details: null,
    error: null,
    ...extra,
  });

/** Writes the SSE head, response.created and response.in_progress; returns the event writer and the response builder. */
function openStream(res: http.ServerResponse, body: ResponsesRequest, n: number) {
  const response = responseObject(body, n, Math.floor(Date.now() / 1000));
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  event("response.created", { response: response("in_progress", []) });
  event("response.in_progress", { response: response("in_progress", []) });
  return { event, response };
}
type Emit = (type: string, data: Record<string, unknown>) => void;

/** A message item's added event, its content part and its text deltas (no done events). */
function startMessage(event: Emit, item: MessageItem, output_index: number) {
  event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
  event("response.content_part.added", {
    item_id: item.id,
    output_index,
    content_index: 0,
    part: { type: "output_text", text: "", annotations: [] },
  });
  for (const delta of pieces(item.content[0]?.text ?? ""))
    event("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
}

/** A function call item's added event and its argument deltas, up to `args` (no done events). */
function startFunctionCall(event: Emit, item: FunctionCallItem, output_index: number, args = item.arguments) {
  event("response.output_item.added", { output_index, item: { ...item, arguments: "", status: "in_progress" } });
  for (const delta of pieces(args))
    event("response.function_call_arguments.delta", { item_id: item.id, output_index, delta });
}

/** Every event of a complete output item. */
function writeItem(event: Emit, item: OutputItem, output_index: number) {
  if (item.type === "message") {
    startMessage(event, item, output_index);
    const text = item.content[0]?.text ?? "";
    event("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
    event("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part: item.content[0] });
  } else {
    startFunctionCall(event, item, output_index);
    event("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments });
  }
  event("response.output_item.done", { output_index, item });
}

function respond(res: http.ServerResponse, body: ResponsesRequest, turn: ResponsesTurn, n: number) {
  const items: OutputItem[] = [];
  if (turn.text) items.push(messageItem(n, turn.text));
  (turn.toolCalls ?? []).forEach((c, i) => items.push(functionCallItem(n, i, c)));
  const usage = estimateUsage(body, items);
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(responseObject(body, n, Math.floor(Date.now() / 1000))("completed", items, { usage })));
    return;
  }
  const { event, response } = openStream(res, body, n);
  items.forEach((item, output_index) => writeItem(event, item, output_index));
  event("response.completed", { response: response("completed", items, { usage }) });
  res.end();
}

// ---- faults ----

function validateStep(step: ResponsesScriptStep) {
  if (!("fault" in step) || step.fault.kind !== "cut") return;
  const first = step.fault.toolCalls[0];
  if (!first) throw new Error("fake-openai-responses: a cut fault needs a tool call to cut");
  const length = JSON.stringify(first.args).length;
  if (!(step.fault.atJsonChar >= 0 && step.fault.atJsonChar <= length))
    throw new Error(
      `fake-openai-responses: cut atJsonChar ${step.fault.atJsonChar} is outside the arguments JSON (0..${length})`,
    );
}

function sendFault(
  res: http.ServerResponse,
  body: ResponsesRequest,
  fault: ResponsesFault,
  n: number,
  connections: ConnectionWatch,
) {
  if (fault.kind === "status") return sendOpenAIError(res, fault, "fake-openai-responses");
  if (fault.kind === "reset") return connections.drop(res);
  const { event, response } = openStream(res, body, n);
  if (fault.kind === "hold") {
    startMessage(event, messageItem(n, fault.text), 0);
    return;
  }
  let output_index = 0;
  if (fault.text) writeItem(event, messageItem(n, fault.text), output_index++);
  const call = functionCallItem(n, 0, fault.toolCalls[0]!);
  startFunctionCall(event, call, output_index, call.arguments.slice(0, fault.atJsonChar));
  if (fault.outOfTokens) {
    event("response.incomplete", {
      response: response("incomplete", [], {
        incomplete_details: { reason: "max_output_tokens" },
        usage: estimateUsage(body, []),
      }),
    });
    return void res.end();
  }
  if (fault.clean) return void res.end();
  connections.dropAfterFlush(res);
}

/** Up to three pieces, so the client must join deltas. */
function pieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
