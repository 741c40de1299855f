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
import { watchConnections } from "./fake-connections";
import { estimateTokens, sendFault, sendJson, sendMessage, validateFault, type Fault } from "./fake-anthropic-wire";

export type { Fault } from "./fake-anthropic-wire";

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

const defaultIsMain = (body: MessagesRequest) => Array.isArray(body.tools) && body.tools.length > 0;

/** Start the fake on 127.0.0.1 on a free port. */
export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const isMain = options.isMain ?? defaultIsMain;
  const log = options.log || process.env.PLANGATE_FAKE_LOG === "1";
  let nextTurn = 0;
  const connections = watchConnections("fake-anthropic");
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
      const rec: RecordedRequest = {
        seq: requests.length,
        method: req.method ?? "GET",
        path,
        kind: "other",
        body,
        headers: req.headers,
        raw,
      };
      requests.push(rec);
      connections.watch(res, rec.seq);
      try {
        handle(rec, res);
      } catch (err) {
        sendJson(res, 500, { type: "error", error: { type: "api_error", message: String(err) } });
      }
      if (log || rec.kind === "other")
        process.stderr.write(
          `[fake-anthropic] ${rec.method} ${rec.path} ${rec.kind}${rec.turn !== undefined ? ` turn=${rec.turn}` : ""} model=${body?.model ?? "-"}\n`,
        );
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
          return sendFault(res, body, turn.fault, connections);
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
    return sendJson(res, 404, {
      type: "error",
      error: { type: "not_found_error", message: `fake-anthropic: ${rec.method} ${rec.path} is not implemented` },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => r.kind === "main"),
    unknownRequests: () => requests.filter((r) => r.kind === "other"),
    turnsServed: () => nextTurn,
    closedEarly: connections.closedEarly,
    waitClosed: connections.waitClosed,
    close: () =>
      new Promise<void>((resolve) => {
        connections.closing();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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
      if (b.type === "tool_result")
        out.push({ toolUseId: b.tool_use_id ?? "", text: contentText(b.content), isError: b.is_error === true });
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
