// A local fake of the Anthropic Messages API, faithful enough for the real Claude Code CLI.
//
// A test scripts the model's turns; every request Claude Code makes to the main conversation consumes one
// turn, in order. Side requests (helper calls without tools, e.g. title generation) get a trivial text answer
// and never consume the script. Every request body is recorded, so a test can assert what the model saw (the
// tool results after a hook decision, the plan-mode instructions, the approved plan text). Requests to other
// paths are recorded as kind "other", logged to stderr, and answered 404 (HEAD and GET / get 200).
//
// Observed with Claude Code 2.1.328 in `-p` stream-json mode (run-claude.ts):
// - Only POST /v1/messages with `stream: true`, one per model turn, all with tools (main). No count_tokens,
//   no side requests, no non-streaming calls. With the nonessential-traffic switches off there is nothing
//   else; without them it also sends `HEAD /api/hello` to the base URL and tries telemetry elsewhere.
// - model "claude-opus-5-5", max_tokens 128000, thinking {type:"adaptive"}, extra fields (context_management,
//   safeguards, output_config, metadata) that this fake ignores; messages may include role "system" entries.
// - ExitPlanMode is a deferred tool (not in `tools`, listed for ToolSearch), yet calling it directly with {}
//   works: Claude Code fills in {plan, planFilePath} from the plan file.
// - The plan-mode instructions arrive as a <system-reminder> in the first request: "…You should create your
//   plan at <CLAUDE_CONFIG_DIR>/plans/<slug>.md using the Write tool." (findPlanFilePath extracts it).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

type TurnBlocks = ScriptBlock[] | ((request: MessagesRequest) => ScriptBlock[]);

/**
 * One model turn: fixed blocks, or blocks computed from the request it answers (e.g. the plan file path named
 * in the prompt); `{ delayMs, blocks }` answers only after a pause (to keep a session busy while a test acts).
 * A turn with tool_use blocks ends with stop_reason "tool_use", otherwise "end_turn".
 */
export type ScriptTurn = TurnBlocks | { delayMs: number; blocks: TurnBlocks } | { fault: Fault };

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

export interface MessagesRequest {
  model?: string;
  system?: string | { type: string; text?: string }[];
  messages?: { role: string; content: string | ContentBlock[] }[];
  tools?: { name: string }[];
  stream?: boolean;
  max_tokens?: number;
  [key: string]: unknown;
}

export interface ContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
}

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  /** main: answered from the script; side: a helper call answered with a trivial text; other: anything else. */
  kind: "main" | "side" | "count_tokens" | "other";
  /** Index of the script turn it consumed (main requests only; -1 when the script was exhausted). */
  turn?: number;
  body: MessagesRequest | null;
  /** The request's headers and raw body, as sent (to check nothing leaks into them). */
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** The fault served instead of a turn, if any. */
  fault?: Fault["kind"];
}

export interface FakeAnthropic {
  /** Base URL for ANTHROPIC_BASE_URL (no trailing slash, no /v1). */
  url: string;
  requests: RecordedRequest[];
  /** The main-conversation requests, in order (request i was answered with turn i). */
  mainRequests(): RecordedRequest[];
  /** Requests to paths this fake does not implement (answered 404 with an Anthropic-style error). */
  unknownRequests(): RecordedRequest[];
  /** How many scripted turns have been served. */
  turnsServed(): number;
  /** The seq of every request whose connection the client closed before the response was complete. */
  closedEarly: number[];
  /** Resolves once request `seq`'s connection was closed early by the client (rejects after timeoutMs, default 5000). */
  waitClosed(seq: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  turns: ScriptTurn[];
  /** Answer after the script is exhausted (default: a short text, end_turn). */
  exhausted?: ScriptBlock[];
  /** Classify a /v1/messages request as main (consumes the script) or side. Default: main iff it has tools. */
  isMain?: (body: MessagesRequest) => boolean;
  /** Log every request to stderr (also PLANGATE_FAKE_LOG=1). */
  log?: boolean;
}

let idCounter = 0;
const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++idCounter).toString(36).padStart(6, "0")}`;

const defaultIsMain = (body: MessagesRequest) => Array.isArray(body.tools) && body.tools.length > 0;

/** Start the fake on 127.0.0.1 on a free port. */
export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const isMain = options.isMain ?? defaultIsMain;
  const log = options.log || process.env.PLANGATE_FAKE_LOG === "1";
  let nextTurn = 0;
  const closedEarly: number[] = [];
  let closing = false;
  const closeWaiters = new Set<() => void>();
  for (const turn of options.turns) if (typeof turn === "object" && "fault" in turn) validateFault(turn.fault);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: MessagesRequest | null = null;
      try {
        body = raw ? (JSON.parse(raw) as MessagesRequest) : null;
      } catch {
        body = null;
      }
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const rec: RecordedRequest = { seq: requests.length, method: req.method ?? "GET", path, kind: "other", body, headers: req.headers, raw };
      requests.push(rec);
      res.on("close", () => {
        // The fake destroying a socket (a fault, or close()) is not the client hanging up.
        if (res.writableEnded || serverDestroyed.has(res) || closing) return;
        closedEarly.push(rec.seq);
        for (const w of [...closeWaiters]) w();
      });
      try {
        handle(rec, res);
      } catch (err) {
        sendJson(res, 500, { type: "error", error: { type: "api_error", message: String(err) } });
      }
      if (log || rec.kind === "other") process.stderr.write(`[fake-anthropic] ${rec.method} ${rec.path} ${rec.kind}${rec.turn !== undefined ? ` turn=${rec.turn}` : ""} model=${body?.model ?? "-"}\n`);
    });
  });

  function handle(rec: RecordedRequest, res: http.ServerResponse) {
    const body = rec.body;
    if (rec.method === "POST" && rec.path === "/v1/messages/count_tokens") {
      rec.kind = "count_tokens";
      return sendJson(res, 200, { input_tokens: estimateTokens(body) });
    }
    if (rec.method === "POST" && rec.path === "/v1/messages" && body) {
      let blocks: ScriptBlock[];
      let delayMs = 0;
      if (isMain(body)) {
        rec.kind = "main";
        const turn = options.turns[nextTurn];
        if (turn === undefined) {
          rec.turn = -1;
          blocks = options.exhausted ?? [{ type: "text", text: "(fake model: script exhausted)" }];
        } else if ("fault" in turn) {
          rec.turn = nextTurn++;
          rec.fault = turn.fault.kind;
          return sendFault(res, body, turn.fault);
        } else {
          rec.turn = nextTurn++;
          const spec = Array.isArray(turn) || typeof turn === "function" ? turn : turn.blocks;
          delayMs = Array.isArray(turn) || typeof turn === "function" ? 0 : turn.delayMs;
          blocks = typeof spec === "function" ? spec(body) : spec;
        }
      } else {
        rec.kind = "side";
        blocks = [{ type: "text", text: "Fake side answer" }];
      }
      if (delayMs > 0) return void setTimeout(() => sendMessage(res, body, blocks), delayMs);
      return sendMessage(res, body, blocks);
    }
    if (rec.method === "HEAD" || (rec.method === "GET" && rec.path === "/")) return sendJson(res, 200, {});
    return sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `fake-anthropic: ${rec.method} ${rec.path} is not implemented` } });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => r.kind === "main"),
    unknownRequests: () => requests.filter((r) => r.kind === "other"),
    turnsServed: () => nextTurn,
    closedEarly,
    waitClosed: (seq, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!closedEarly.includes(seq)) return false;
          closeWaiters.delete(check);
          clearTimeout(timer);
          resolve();
          return true;
        };
        const timer = setTimeout(() => {
          closeWaiters.delete(check);
          reject(new Error(`fake-anthropic: request ${seq} was not closed early within ${timeoutMs} ms (closedEarly: [${closedEarly.join(", ")}])`));
        }, timeoutMs);
        if (!check()) closeWaiters.add(check);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown) {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
  res.end(text);
}

function estimateTokens(body: MessagesRequest | null): number {
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
  return blocks.map((b) => (b.type === "text" ? { type: "text", text: b.text } : { type: "tool_use", id: b.id ?? newId("toolu"), name: b.name, input: b.input }));
}

function buildMessage(body: MessagesRequest, blocks: ScriptBlock[]) {
  const content = toOut(blocks);
  const stopReason = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  const outputTokens = Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
  const usage = { input_tokens: estimateTokens(body), output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: newId("msg"), type: "message", role: "assistant", model: body.model ?? "claude-fake", content, stop_reason: stopReason, stop_sequence: null, usage };
  return { content, stopReason, outputTokens, usage, message };
}

type Emit = (type: string, data: Record<string, unknown>) => boolean;

/** Writes the SSE head and message_start; returns the event writer. */
function openStream(res: http.ServerResponse, built: ReturnType<typeof buildMessage>): Emit {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "request-id": newId("req") });
  const event: Emit = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", { message: { ...built.message, content: [], stop_reason: null, usage: { ...built.usage, output_tokens: 1 } } });
  event("ping", {});
  return event;
}

/** Streams one block; with cutAt the block stays open (no content_block_stop) and a tool_use input stops after cutAt characters. */
function streamBlock(event: Emit, block: OutBlock, index: number, cutAt?: number) {
  if (block.type === "text") {
    event("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of split(block.text ?? "", 40)) event("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
  } else {
    event("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
    const json = JSON.stringify(block.input ?? {});
    for (const piece of split(cutAt === undefined ? json : json.slice(0, cutAt), 40)) event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
  }
  if (cutAt === undefined) event("content_block_stop", { index });
}

function sendMessage(res: http.ServerResponse, body: MessagesRequest, blocks: ScriptBlock[]) {
  const built = buildMessage(body, blocks);
  if (!body.stream) return sendJson(res, 200, built.message);
  const event = openStream(res, built);
  built.content.forEach((block, index) => streamBlock(event, block, index));
  event("message_delta", { delta: { stop_reason: built.stopReason, stop_sequence: null }, usage: { output_tokens: built.outputTokens } });
  event("message_stop", {});
  res.end();
}

// ---- faults ----

const serverDestroyed = new WeakSet<http.ServerResponse>();

/**
 * Destroys the connection once everything written so far has reached the kernel, so the client gets those bytes.
 * An empty res.write would call back on the next tick without waiting; the socket's own queue is ordered.
 */
function destroyAfterFlush(res: http.ServerResponse) {
  serverDestroyed.add(res);
  const socket = res.socket;
  socket?.write("", () => socket.destroy());
}

const errorTypes: Record<number, string> = { 400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error" };

function validateFault(fault: Fault) {
  if (fault.kind !== "cut") return;
  const tool = fault.blocks.find((b) => b.type === "tool_use");
  if (!tool) throw new Error("fake-anthropic: a cut fault needs a tool_use block to cut");
  const length = JSON.stringify(tool.input).length;
  if (!(fault.atJsonChar >= 0 && fault.atJsonChar <= length)) throw new Error(`fake-anthropic: cut atJsonChar ${fault.atJsonChar} is outside the input JSON (0..${length})`);
}

function sendFault(res: http.ServerResponse, body: MessagesRequest, fault: Fault) {
  if (fault.kind === "status") {
    const type = errorTypes[fault.status] ?? (fault.status >= 500 ? "api_error" : "invalid_request_error");
    const payload = fault.body ?? { type: "error", error: { type, message: `fake-anthropic: injected ${fault.status} ${type}` } };
    const raw = typeof payload === "string";
    res.writeHead(fault.status, { "content-type": raw ? "text/plain" : "application/json", "request-id": newId("req"), ...fault.headers });
    return void res.end(raw ? payload : JSON.stringify(payload));
  }
  if (fault.kind === "reset") {
    serverDestroyed.add(res);
    return void res.socket?.destroy();
  }
  if (fault.kind === "hold" && !body.stream) return void res.writeHead(200, { "content-type": "application/json", "request-id": newId("req") }).flushHeaders();
  if (fault.kind === "hold") return void streamBlock(openStream(res, buildMessage(body, [])), { type: "text", text: fault.text }, 0, 0);
  if (!body.stream) throw new Error(`fake-anthropic: the ${fault.kind} fault needs a streaming request`);
  if (fault.kind === "stream-error") {
    const text = fault.blocks.filter((b) => b.type === "text");
    // With no text the error is the first event, as when the API is overloaded at once; the SDK handles that case apart.
    if (text.length === 0) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": newId("req") });
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
  built.content.slice(0, cutIndex + 1).forEach((block, index) => streamBlock(event, block, index, index === cutIndex ? fault.atJsonChar : undefined));
  if (fault.clean) res.end();
  else destroyAfterFlush(res);
}

function split(text: string, size: number): string[] {
  if (text.length === 0) return [""];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

// ---- helpers for assertions on recorded requests ----

/** The system prompt as one string. */
export function systemText(body: MessagesRequest | null): string {
  const s = body?.system;
  if (!s) return "";
  return typeof s === "string" ? s : s.map((b) => b.text ?? "").join("\n");
}

/** The text of a content block or string, tool_result contents included. */
export function contentText(content: string | ContentBlock[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "tool_result" ? contentText(b.content) : (b.text ?? ""))).join("\n");
}

/** Every tool_result block in the request's messages, in order. */
export function toolResults(body: MessagesRequest | null): { toolUseId: string; text: string; isError: boolean }[] {
  const out: { toolUseId: string; text: string; isError: boolean }[] = [];
  for (const m of body?.messages ?? []) {
    if (typeof m.content === "string") continue;
    for (const b of m.content) {
      if (b.type === "tool_result") out.push({ toolUseId: b.tool_use_id ?? "", text: contentText(b.content), isError: b.is_error === true });
    }
  }
  return out;
}

/** All text the model can see in a request: system prompt and every message (tool results included). */
export function allText(body: MessagesRequest | null): string {
  return [systemText(body), ...(body?.messages ?? []).map((m) => contentText(m.content))].join("\n");
}

/** The plan file path Claude Code tells the model about in plan mode (an absolute path to a .md under plans/). */
export function findPlanFilePath(body: MessagesRequest | null): string | null {
  const match = /(\/[^\s`'"()]*\/plans\/[^\s`'"()]+\.md)/.exec(allText(body));
  return match?.[1] ?? null;
}
