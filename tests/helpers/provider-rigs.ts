// The three provider protocols behind one script shape, so a fault test runs the same story through each real
// AI SDK provider: Anthropic Messages, OpenAI-compatible chat completions, OpenAI Responses.
import type http from "node:http";
import {
  allText,
  startFakeAnthropic,
  systemText,
  toolResults,
  type ScriptBlock,
  type ScriptTurn,
} from "../agents/fake-anthropic";
import { messageText, startFakeOpenAI, type ScriptStep } from "../agents/fake-openai";
import {
  responsesSystemText,
  responsesToolResults,
  startFakeOpenAIResponses,
  type ResponsesScriptStep,
} from "../agents/fake-openai-responses";
import type { SessionEvent } from "../../lib/session/log/events";

export type Call = { id: string; name: string; args: Record<string, unknown> };
/** overflow: the provider's own "the prompt does not fit" 400. */
export type Fault =
  | { kind: "status"; status: number; headers?: Record<string, string> }
  | { kind: "overflow" }
  | { kind: "reset" }
  | { kind: "cut"; clean: boolean; call: Call; text?: string; atJsonChar: number }
  | { kind: "hold"; text: string };
export type Step = { text?: string; calls?: Call[] } | { fault: Fault };

/** One request as the provider sent it, normalised: `text` is everything the model saw, as text. */
export type Sent = {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  tools: string[];
  system: string;
  results: Map<string, string>;
  text: string;
};

export type Rig = {
  name: string;
  model: string;
  /** The provider's key setting and the header it travels in. */
  keyVar: "ANTHROPIC_API_KEY" | "OPENAI_API_KEY" | "PLANGATE_API_KEY";
  keyHeader: string;
  /** The settings a person is told to check when the provider refuses the key. */
  keyAdvice: string;
  start: (steps: Step[]) => Promise<{
    env: Record<string, string>;
    /** Every request made, in order. */
    sent: () => Sent[];
    /** Requests made, in order: everything the model saw in each, as text. */
    seen: () => string[];
    /** Resolves once request i's connection was closed by Plangate before the answer ended. */
    waitClosed: (i: number) => Promise<void>;
    close: () => Promise<void>;
  }>;
};

export const RIG_KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-test-0001",
  OPENAI_API_KEY: "sk-openai-test-0002",
  PLANGATE_API_KEY: "sk-compat-test-0003",
};

const ANTHROPIC_OVERFLOW = {
  type: "error",
  error: { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" },
};
const OPENAI_OVERFLOW = {
  error: {
    message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 250000 tokens.",
    type: "invalid_request_error",
    code: "context_length_exceeded",
    param: "messages",
  },
};

const blocks = (t: { text?: string; calls?: Call[] }): ScriptBlock[] => [
  ...(t.text ? [{ type: "text" as const, text: t.text }] : []),
  ...(t.calls ?? []).map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: c.args })),
];
const toolCalls = (calls: Call[] | undefined) => (calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args }));

/** The OpenAI-shaped faults (chat completions and Responses take the same). */
function openAiFault(f: Fault) {
  switch (f.kind) {
    case "overflow":
      return { kind: "status" as const, status: 400, body: OPENAI_OVERFLOW };
    case "cut":
      return {
        kind: "cut" as const,
        toolCalls: toolCalls([f.call]),
        text: f.text,
        atJsonChar: f.atJsonChar,
        clean: f.clean,
      };
    default:
      return f;
  }
}

type Started = Awaited<ReturnType<Rig["start"]>>;
const withSeen = (fake: Omit<Started, "seen">): Started => ({ ...fake, seen: () => fake.sent().map((s) => s.text) });

export const RIGS: Rig[] = [
  {
    name: "Anthropic Messages",
    model: "anthropic:claude-fake",
    keyVar: "ANTHROPIC_API_KEY",
    keyHeader: "x-api-key",
    keyAdvice: "Check ANTHROPIC_API_KEY.",
    async start(steps) {
      const turns: ScriptTurn[] = steps.map((s) => {
        if (!("fault" in s)) return blocks(s);
        const f = s.fault;
        if (f.kind === "overflow") return { fault: { kind: "status", status: 400, body: ANTHROPIC_OVERFLOW } };
        if (f.kind === "cut")
          return {
            fault: {
              kind: "cut",
              blocks: blocks({ text: f.text, calls: [f.call] }),
              atJsonChar: f.atJsonChar,
              clean: f.clean,
            },
          };
        return { fault: f };
      });
      const fake = await startFakeAnthropic({ turns });
      const sent = () =>
        fake.requests.map((r) => ({
          path: r.path,
          headers: r.headers,
          raw: r.raw,
          tools: (r.body?.tools ?? []).map((t) => t.name),
          system: systemText(r.body),
          results: new Map(toolResults(r.body).map((x) => [x.toolUseId, x.text])),
          text: allText(r.body),
        }));
      return withSeen({
        env: { ANTHROPIC_BASE_URL: fake.url },
        sent,
        waitClosed: (i) => fake.waitClosed(fake.requests[i]!.seq),
        close: fake.close,
      });
    },
  },
  {
    name: "OpenAI-compatible chat completions",
    model: "openai-compatible:llama-fake",
    keyVar: "PLANGATE_API_KEY",
    keyHeader: "authorization",
    keyAdvice: "Check PLANGATE_API_KEY and PLANGATE_BASE_URL.",
    async start(steps) {
      const script: ScriptStep[] = steps.map((s) =>
        "fault" in s ? { fault: openAiFault(s.fault) } : { text: s.text, toolCalls: toolCalls(s.calls) },
      );
      const fake = await startFakeOpenAI(script);
      const sent = () =>
        fake.requests.map((r) => ({
          path: r.path,
          headers: r.headers,
          raw: r.raw,
          tools: (r.body.tools ?? []).map((t) => t.function.name),
          system: r.body.messages
            .filter((m) => m.role === "system")
            .map(messageText)
            .join("\n"),
          results: new Map(
            r.body.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id ?? "", messageText(m)]),
          ),
          text: r.body.messages
            .map((m) =>
              [messageText(m), ...(m.tool_calls ?? []).map((c) => `${c.id} ${c.function.arguments}`)].join("\n"),
            )
            .join("\n"),
        }));
      return withSeen({
        env: { PLANGATE_BASE_URL: fake.url },
        sent,
        waitClosed: (i) => fake.waitClosed(i),
        close: fake.close,
      });
    },
  },
  {
    name: "OpenAI Responses",
    model: "openai:gpt-fake",
    keyVar: "OPENAI_API_KEY",
    keyHeader: "authorization",
    keyAdvice: "Check OPENAI_API_KEY.",
    async start(steps) {
      const script: ResponsesScriptStep[] = steps.map((s) =>
        "fault" in s ? { fault: openAiFault(s.fault) } : { text: s.text, toolCalls: toolCalls(s.calls) },
      );
      const fake = await startFakeOpenAIResponses(script);
      const sent = () =>
        fake.requests.map((r) => ({
          path: r.path,
          headers: r.headers,
          raw: r.raw,
          tools: (r.body?.tools ?? []).map((t) => t.name),
          system: responsesSystemText(r.body),
          results: new Map(responsesToolResults(r.body).map((x) => [x.callId, x.text])),
          text: r.raw,
        }));
      return withSeen({
        env: { OPENAI_BASE_URL: fake.url },
        sent,
        waitClosed: (i) => fake.waitClosed(i),
        close: fake.close,
      });
    },
  },
];

export const ofType = <T extends SessionEvent["type"]>(events: SessionEvent[], type: T) =>
  events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);
