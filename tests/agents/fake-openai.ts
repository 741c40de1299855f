// A fake OpenAI-compatible chat completions API for driving real agent CLIs offline. Each main request (one
// that offers tools) takes the next scripted turn; side requests (title generation, summaries: no tools) get a
// short text without consuming the script. Every request is recorded. With strictOrder it refuses, as OpenAI's API
// does (400), a request whose assistant tool calls are not followed at once by their results.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { waitUntil, watchConnections, type ConnectionWatch } from "./fake-connections";
import type {
  ChatMessage,
  ChatRequest,
  FakeOpenAI,
  OpenAIFault,
  Recorded,
  ScriptStep,
  Turn,
} from "./fake-openai-types";

export type * from "./fake-openai-types";

/** The text content of a message, whatever its shape. */
export function messageText(m: ChatMessage): string {
  if (typeof m.content === "string") return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => p.text ?? "").join("");
  return "";
}

/** The result text the request carries for a tool call id (role "tool"). */
export function toolResult(req: ChatRequest, callId: string): string | undefined {
  const m = req.messages.find((x) => x.role === "tool" && x.tool_call_id === callId);
  return m ? messageText(m) : undefined;
}

const isSide = (req: ChatRequest) => !req.tools || req.tools.length === 0;

export async function startFakeOpenAI(
  script: ScriptStep[] = [],
  opts: { fallbackText?: string; strictOrder?: boolean } = {},
): Promise<FakeOpenAI> {
  const queue = [...script];
  script.forEach(validateStep);
  const requests: Recorded[] = [];
  const waiters = new Set<() => void>();
  const connections = watchConnections("fake-openai");
  let seq = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = (req.url ?? "").replace(/\?.*$/, "");
      if (req.method === "GET" && url.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model", owned_by: "tests" }] }));
        return;
      }
      if (req.method !== "POST" || !url.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `fake-openai: no route ${req.method} ${url}` } }));
        return;
      }
      let body: ChatRequest;
      const raw = Buffer.concat(chunks).toString("utf8");
      try {
        body = JSON.parse(raw) as ChatRequest;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const side = isSide(body);
      const refused = !side && opts.strictOrder ? misorder(body.messages) : undefined;
      let turn: Turn | Promise<Turn> | undefined;
      let fault: OpenAIFault | undefined;
      if (side) turn = { text: "Plan review" };
      else if (refused === undefined) {
        const step = queue.shift();
        if (step !== undefined && "fault" in step) fault = step.fault;
        else
          turn =
            step === undefined
              ? { text: opts.fallbackText ?? "Done." }
              : typeof step === "function"
                ? step(body)
                : step;
      }
      const rec: Recorded = {
        at: Date.now(),
        path: url,
        body,
        side,
        headers: req.headers,
        raw,
        ...(turn instanceof Promise || turn === undefined ? {} : { turn }),
        ...(fault ? { fault: fault.kind } : {}),
        ...(refused === undefined ? {} : { refused }),
      };
      const index = requests.push(rec) - 1;
      connections.watch(res, index);
      for (const w of [...waiters]) w();
      const id = `chatcmpl-${++seq}`;
      if (refused !== undefined)
        sendOpenAIError(
          res,
          {
            status: 400,
            body: { error: { message: refused, type: "invalid_request_error", param: "messages", code: null } },
          },
          "fake-openai",
        );
      else if (fault) sendFault(res, body, fault, id, connections);
      else if (turn instanceof Promise)
        void turn.then((t) => {
          rec.turn = t;
          respond(res, body, t, id);
        });
      else respond(res, body, turn ?? {}, id);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;

  const main = () => requests.filter((r) => !r.side);
  const waitFor = (pred: (r: Recorded) => boolean, timeoutMs = 60_000) =>
    waitUntil(
      waiters,
      () => main().find(pred),
      timeoutMs,
      () => `fake-openai: no matching request within ${timeoutMs} ms (${main().length} main requests)`,
    );

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    main,
    push: (...steps) => {
      steps.forEach(validateStep);
      queue.push(...steps);
    },
    waitFor,
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

function respond(res: http.ServerResponse, body: ChatRequest, turn: Turn, id: string) {
  const created = Math.floor(Date.now() / 1000);
  const calls = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${id}_${i}`,
    name: c.name,
    args: JSON.stringify(c.args),
  }));
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const usage = estimateUsage(body, (turn.text ?? "") + calls.map((c) => c.name + c.args).join(""));
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    const message = {
      role: "assistant",
      content: turn.text ?? null,
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: c.args },
            })),
          }
        : {}),
    };
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  const { chunk, delta } = openStream(res, body, id);
  if (turn.text) for (const piece of splitInto(turn.text, 3)) delta({ content: piece });
  calls.forEach((c, index) => {
    delta({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
    for (const piece of splitInto(c.args, 3)) delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  delta({}, finish);
  chunk([], { usage });
  res.end("data: [DONE]\n\n");
}

/** Writes the SSE head and the role chunk; returns the chunk writers. */
function openStream(res: http.ServerResponse, body: ChatRequest, id: string) {
  const created = Math.floor(Date.now() / 1000);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices, ...extra })}\n\n`,
    );
  const delta = (d: Record<string, unknown>, finish_reason: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason }]);
  delta({ role: "assistant", content: "" });
  return { chunk, delta };
}

/** Token counts estimated like fake-anthropic's (a quarter of the characters), so they grow with the conversation. */
function estimateUsage(body: ChatRequest, completion: string) {
  const prompt_tokens = Math.max(1, Math.ceil(JSON.stringify(body).length / 4));
  const completion_tokens = Math.max(1, Math.ceil(completion.length / 4));
  return {
    prompt_tokens,
    completion_tokens,
    total_tokens: prompt_tokens + completion_tokens,
    prompt_tokens_details: { cached_tokens: 0 },
  };
}

// ---- faults ----

function validateStep(step: ScriptStep) {
  if (typeof step !== "object" || !("fault" in step) || step.fault.kind !== "cut") return;
  const first = step.fault.toolCalls[0];
  if (!first) throw new Error("fake-openai: a cut fault needs a tool call to cut");
  const length = JSON.stringify(first.args).length;
  if (!(step.fault.atJsonChar >= 0 && step.fault.atJsonChar <= length))
    throw new Error(
      `fake-openai: cut atJsonChar ${step.fault.atJsonChar} is outside the arguments JSON (0..${length})`,
    );
}

/** An HTTP error as OpenAI's APIs send it ({error: {message, type, code, param}}); a string body goes verbatim. */
export function sendOpenAIError(
  res: http.ServerResponse,
  fault: { status: number; headers?: Record<string, string>; body?: unknown },
  name: string,
) {
  const kind = errorKinds[fault.status] ?? {
    type: fault.status >= 500 ? "server_error" : "invalid_request_error",
    code: null,
  };
  const payload = fault.body ?? {
    error: { message: `${name}: injected ${fault.status} ${kind.type}`, ...kind, param: null },
  };
  const raw = typeof payload === "string";
  res.writeHead(fault.status, { "content-type": raw ? "text/plain" : "application/json", ...fault.headers });
  res.end(raw ? payload : JSON.stringify(payload));
}

const errorKinds: Record<number, { type: string; code: string | null }> = {
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "rate_limit_exceeded", code: "rate_limit_exceeded" },
};

function sendFault(
  res: http.ServerResponse,
  body: ChatRequest,
  fault: OpenAIFault,
  id: string,
  connections: ConnectionWatch,
) {
  if (fault.kind === "status") return sendOpenAIError(res, fault, "fake-openai");
  if (fault.kind === "reset") return connections.drop(res);
  const { delta } = openStream(res, body, id);
  if (fault.text) for (const piece of splitInto(fault.text, 3)) delta({ content: piece });
  if (fault.kind === "hold") return;
  const call = fault.toolCalls[0]!;
  const callId = call.id ?? `call_${id}_0`;
  delta({ tool_calls: [{ index: 0, id: callId, type: "function", function: { name: call.name, arguments: "" } }] });
  const args = JSON.stringify(call.args).slice(0, fault.atJsonChar);
  if (args)
    for (const piece of splitInto(args, 3)) delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
  if (fault.clean) return void res.end();
  connections.dropAfterFlush(res);
}

/** Splits text into up to n pieces, so clients must concatenate deltas. */
function splitInto(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * What OpenAI's chat completions API says of a request whose assistant tool calls are not followed at once by a
 * tool message for each (a user message between a call and its result), or undefined when the order is right.
 */
export function misorder(messages: ChatMessage[]): string | undefined {
  let awaiting: string[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      awaiting = awaiting.filter((id) => id !== m.tool_call_id);
      continue;
    }
    if (awaiting.length > 0) break;
    if (m.role === "assistant") awaiting = (m.tool_calls ?? []).map((c) => c.id);
  }
  if (awaiting.length === 0) return undefined;
  return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${awaiting.join(", ")}`;
}

/** OpenCode tells the plan agent where to write its plan; a scripted model reads the path from the prompt. */
export function planPath(req: ChatRequest): string {
  for (const m of req.messages) {
    const hit =
      /create your plan at (\S+\.md)/.exec(messageText(m)) ??
      /plan file already exists at (\S+\.md)/i.exec(messageText(m));
    if (hit?.[1]) return hit[1];
  }
  throw new Error("the prompt names no plan file");
}

/** The recorded request answers this tool call (it carries the call's result). */
export const answersCall = (callId: string) => (r: Recorded) => toolResult(r.body, callId) !== undefined;
