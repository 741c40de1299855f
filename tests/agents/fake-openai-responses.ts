// A fake of the OpenAI Responses API (POST /v1/responses, streaming), the API @ai-sdk/openai 3.x calls for
// createOpenAI()(id). Each request takes the next scripted turn; every request is recorded with its headers and
// raw body. The stream follows the documented event sequence: response.created, response.in_progress, then per
// output item response.output_item.added, its deltas (response.output_text.delta or
// response.function_call_arguments.delta/done), response.output_item.done, and response.completed with usage.
import http from "node:http";
import type { AddressInfo } from "node:net";

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
export type ResponsesTurn = { text?: string; toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[] };
export type ResponsesRecorded = { path: string; headers: http.IncomingHttpHeaders; raw: string; body: ResponsesRequest | null; turn?: number };

export type FakeOpenAIResponses = {
  /** Base URL including `/v1` (for OPENAI_BASE_URL). */
  url: string;
  requests: ResponsesRecorded[];
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
  return (body?.input ?? []).flatMap((i) => (i.type === "function_call_output" ? [{ callId: i.call_id ?? "", text: partsText(i.output) }] : []));
}

export async function startFakeOpenAIResponses(turns: ResponsesTurn[], opts: { fallbackText?: string } = {}): Promise<FakeOpenAIResponses> {
  const requests: ResponsesRecorded[] = [];
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
      requests.push(rec);
      if (req.method !== "POST" || path !== "/v1/responses" || !body) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `fake-openai-responses: no route ${req.method} ${path}`, type: "invalid_request_error", code: "not_found" } }));
        return;
      }
      const turn = turns[next];
      rec.turn = turn ? next++ : -1;
      respond(res, body, turn ?? { text: opts.fallbackText ?? "Done." }, ++seq);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type OutputItem =
  | { type: "message"; id: string; status: string; role: "assistant"; content: { type: "output_text"; text: string; annotations: unknown[] }[] }
  | { type: "function_call"; id: string; call_id: string; name: string; arguments: string; status: string };

function respond(res: http.ServerResponse, body: ResponsesRequest, turn: ResponsesTurn, n: number) {
  const id = `resp_fake${n}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const items: OutputItem[] = [];
  if (turn.text) items.push({ type: "message", id: `msg_fake${n}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: turn.text, annotations: [] }] });
  (turn.toolCalls ?? []).forEach((c, i) =>
    items.push({ type: "function_call", id: `fc_fake${n}_${i}`, call_id: c.id ?? `call_fake${n}_${i}`, name: c.name, arguments: JSON.stringify(c.args), status: "completed" }),
  );
  const usage = { input_tokens: Math.ceil(JSON.stringify(body).length / 4), input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  const response = (status: string, output: OutputItem[], extra: Record<string, unknown> = {}) => ({
    id, object: "response", created_at: createdAt, status, model: body.model, output, incomplete_details: null, error: null, ...extra,
  });
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(response("completed", items, { usage })));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  event("response.created", { response: response("in_progress", []) });
  event("response.in_progress", { response: response("in_progress", []) });
  items.forEach((item, output_index) => {
    if (item.type === "message") {
      event("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      event("response.content_part.added", { item_id: item.id, output_index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
      const text = item.content[0]?.text ?? "";
      for (const delta of pieces(text)) event("response.output_text.delta", { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
      event("response.output_text.done", { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
      event("response.content_part.done", { item_id: item.id, output_index, content_index: 0, part: item.content[0] });
    } else {
      event("response.output_item.added", { output_index, item: { ...item, arguments: "", status: "in_progress" } });
      for (const delta of pieces(item.arguments)) event("response.function_call_arguments.delta", { item_id: item.id, output_index, delta });
      event("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: item.arguments });
    }
    event("response.output_item.done", { output_index, item });
  });
  event("response.completed", { response: response("completed", items, { usage }) });
  res.end();
}

/** Up to three pieces, so the client must join deltas. */
function pieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
