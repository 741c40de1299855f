// The fake OpenAI-compatible chat completions API's shapes (tests/agents/fake-openai.ts): what a client sends, what a
// script answers with, the faults it can serve instead, and what each request left on record.
import type http from "node:http";

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
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
};
export type ToolCall = { name: string; args: Record<string, unknown>; id?: string };
export type Turn = { text?: string; toolCalls?: ToolCall[] };
/**
 * A provider fault served in place of a turn (it consumes one main request, so an SDK retry takes the next step).
 * - status: an HTTP error; the default body is OpenAI's {error: {message, type, param, code}}; a string goes verbatim.
 * - reset: the socket is destroyed before any byte of the response.
 * - cut: the text streams, then the first tool call's id/name chunk and its arguments up to atJsonChar characters
 *   of JSON.stringify(args); no finish_reason, usage or [DONE]; clean ends the HTTP response, otherwise the socket dies.
 * - hold: 200, the role chunk and the text as content deltas, then silence until the client hangs up.
 * cut and hold answer in SSE even to a non-streaming request.
 */
export type OpenAIFault =
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: "reset" }
  | { kind: "cut"; toolCalls: ToolCall[]; text?: string; atJsonChar: number; clean?: boolean }
  | { kind: "hold"; text: string };
/**
 * A turn, a function choosing it from the request (e.g. to read the plan file's path from the prompt; a promise
 * holds the response until it settles, so a test can act while the request is in flight), or a fault.
 */
export type ScriptStep = Turn | ((req: ChatRequest) => Turn | Promise<Turn>) | { fault: OpenAIFault };
/** headers and raw: the request as sent (to check nothing leaks into it). fault: the fault served instead of a turn. */
export type Recorded = {
  at: number;
  path: string;
  body: ChatRequest;
  side: boolean;
  turn?: Turn;
  headers: http.IncomingHttpHeaders;
  raw: string;
  fault?: OpenAIFault["kind"];
  /** strictOrder: why the request was refused (it took no step of the script). */
  refused?: string;
};

export type FakeOpenAI = {
  /** Base URL including `/v1`. */
  url: string;
  requests: Recorded[];
  /** The main (tool-offering) requests, in order. */
  main: () => Recorded[];
  push: (...steps: ScriptStep[]) => void;
  /** Resolves with the first recorded main request (from index `from`) satisfying `pred`. */
  waitFor: (pred: (r: Recorded) => boolean, timeoutMs?: number) => Promise<Recorded>;
  /** Indexes into `requests` of every request whose connection the client closed before the response was complete. */
  closedEarly: number[];
  /** Resolves once request `index`'s connection was closed early by the client (rejects after timeoutMs, default 5000). */
  waitClosed: (index: number, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};
