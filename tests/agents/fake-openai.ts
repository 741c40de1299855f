// A fake OpenAI-compatible chat completions API for driving real agent CLIs offline. Each main request (one
// that offers tools) takes the next scripted turn; side requests (title generation, summaries: no tools) get a
// short text without consuming the script. Every request is recorded.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ChatMessage = {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};
export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
};
export type ToolCall = { name: string; args: Record<string, unknown>; id?: string };
export type Turn = { text?: string; toolCalls?: ToolCall[] };
/** A turn, or a function choosing it from the request (e.g. to read the plan file's path from the prompt). */
export type ScriptStep = Turn | ((req: ChatRequest) => Turn);
/** headers and raw: the request as sent (to check nothing leaks into it). */
export type Recorded = { at: number; path: string; body: ChatRequest; side: boolean; turn?: Turn; headers: http.IncomingHttpHeaders; raw: string };

export type FakeOpenAI = {
  /** Base URL including `/v1`. */
  url: string;
  requests: Recorded[];
  /** The main (tool-offering) requests, in order. */
  main: () => Recorded[];
  push: (...steps: ScriptStep[]) => void;
  /** Resolves with the first recorded main request (from index `from`) satisfying `pred`. */
  waitFor: (pred: (r: Recorded) => boolean, timeoutMs?: number) => Promise<Recorded>;
  close: () => Promise<void>;
};

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

export async function startFakeOpenAI(script: ScriptStep[] = [], opts: { fallbackText?: string } = {}): Promise<FakeOpenAI> {
  const queue = [...script];
  const requests: Recorded[] = [];
  const waiters = new Set<() => void>();
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
      let turn: Turn;
      if (side) turn = { text: "Plan review" };
      else {
        const step = queue.shift();
        turn = step === undefined ? { text: opts.fallbackText ?? "Done." } : typeof step === "function" ? step(body) : step;
      }
      requests.push({ at: Date.now(), path: url, body, side, turn, headers: req.headers, raw });
      for (const w of [...waiters]) w();
      respond(res, body, turn, `chatcmpl-${++seq}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;

  const main = () => requests.filter((r) => !r.side);
  const waitFor = (pred: (r: Recorded) => boolean, timeoutMs = 60_000) =>
    new Promise<Recorded>((resolve, reject) => {
      const check = () => {
        const hit = main().find(pred);
        if (!hit) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(hit);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`fake-openai: no matching request within ${timeoutMs} ms (${main().length} main requests)`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    main,
    push: (...steps) => queue.push(...steps),
    waitFor,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function respond(res: http.ServerResponse, body: ChatRequest, turn: Turn, id: string) {
  const created = Math.floor(Date.now() / 1000);
  const calls = (turn.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${id}_${i}`, name: c.name, args: JSON.stringify(c.args) }));
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    const message = {
      role: "assistant",
      content: turn.text ?? null,
      ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })) } : {}),
    };
    res.end(JSON.stringify({ id, object: "chat.completion", created, model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices, ...extra })}\n\n`);
  const delta = (d: Record<string, unknown>, finish_reason: string | null = null) => chunk([{ index: 0, delta: d, finish_reason }]);
  delta({ role: "assistant", content: "" });
  if (turn.text) for (const piece of splitInto(turn.text, 3)) delta({ content: piece });
  calls.forEach((c, index) => {
    delta({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
    for (const piece of splitInto(c.args, 3)) delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  delta({}, finish);
  chunk([], { usage });
  res.end("data: [DONE]\n\n");
}

/** Splits text into up to n pieces, so clients must concatenate deltas. */
function splitInto(text: string, n: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** OpenCode tells the plan agent where to write its plan; a scripted model reads the path from the prompt. */
export function planPath(req: ChatRequest): string {
  for (const m of req.messages) {
    const hit = /create your plan at (\S+\.md)/.exec(messageText(m)) ?? /plan file already exists at (\S+\.md)/i.exec(messageText(m));
    if (hit?.[1]) return hit[1];
  }
  throw new Error("the prompt names no plan file");
}

/** The recorded request answers this tool call (it carries the call's result). */
export const answersCall = (callId: string) => (r: Recorded) => toolResult(r.body, callId) !== undefined;
