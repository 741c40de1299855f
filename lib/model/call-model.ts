import type {
  LanguageModelV3,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { Usage } from "../session/log/usage";
import { retry } from "../retry";
import { classifyModelError, messageOf, StreamCut } from "./model-errors";

export type ModelStep = {
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  /** Tokens the request used, when the provider reported any. */
  usage?: Usage;
};

/** A failed request about to be tried again: attempt `attempt` of `of` starts after delayMs. */
export type RetryNotice = { attempt: number; of: number; delayMs: number; reason: string };

/** The person stopped the turn while the answer streamed: the text received so far, which is all there is. */
export class StoppedMidStream extends Error {
  constructor(readonly text: string) {
    super("The request was aborted while the answer streamed.");
    this.name = "AbortError";
  }
}

/** The request failed for good after its retries (or the provider asked for a longer wait than we keep a turn). */
export class ModelGaveUp extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = "ModelGaveUp";
  }
}

// Longest wait between attempts: a provider's retry-after beyond it ends the turn instead (retry from the page).
const MAX_WAIT_MS = 60_000;
const MAX_BACKOFF_MS = 30_000;

function parseInput(raw: string): unknown {
  try {
    return JSON.parse(raw || "{}");
  } catch {
    // Kept as text: the gate validates every input and tells the model what was wrong.
    return raw;
  }
}

function toUsage(u: LanguageModelV3Usage | undefined): Usage | undefined {
  const input = u?.inputTokens.total ?? 0;
  const output = u?.outputTokens.total ?? 0;
  if (!u || (input === 0 && output === 0)) return undefined;
  const out: Usage = { input, output };
  if (u.inputTokens.cacheRead !== undefined) out.cacheRead = u.inputTokens.cacheRead;
  if (u.inputTokens.cacheWrite !== undefined) out.cacheWrite = u.inputTokens.cacheWrite;
  return out;
}

/**
 * One model request through the AI SDK provider interface. The turn's loop is ours (durable, rebuilt from the
 * log at every step), so this calls the provider directly instead of generateText, which re-validates the whole
 * typed history with zod on every call. A step counts only once the provider said it is complete: a failure
 * worth another try (rate limit, overload, a cut connection or stream) is retried with backoff, and nothing of
 * the failed attempt is kept, so a half-received tool call never runs. A context overflow is thrown for the
 * caller to compact.
 */
export async function callModel(input: {
  model: LanguageModelV3;
  system: string;
  messages: LanguageModelV3Message[];
  tools: LanguageModelV3FunctionTool[];
  abortSignal: AbortSignal;
  /** The text so far, as it streams (the step is streamed only when this is given). */
  onText?: (text: string) => void;
  /** Tries in all, and the first wait (doubled each time) when the provider gives no retry-after. */
  attempts?: number;
  retryBaseMs?: number;
  /** Called before each wait (to log it: a person sees the turn is retrying, not stuck). */
  onRetry?: (notice: RetryNotice) => Promise<void>;
}): Promise<ModelStep> {
  const prompt: LanguageModelV3Message[] = [{ role: "system", content: input.system }, ...input.messages];
  const attempts = input.attempts ?? 1;
  return retry(
    async () => {
      if (input.onText) return await streamStep(input.model, prompt, input.tools, input.abortSignal, input.onText);
      const result = await input.model.doGenerate({
        prompt,
        tools: input.tools,
        toolChoice: { type: "auto" },
        abortSignal: input.abortSignal,
      });
      const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
      const toolCalls = result.content.flatMap((c) =>
        c.type === "tool-call" && !c.providerExecuted
          ? [{ toolCallId: c.toolCallId, toolName: c.toolName, input: parseInput(c.input) }]
          : [],
      );
      return { text, toolCalls, usage: toUsage(result.usage) };
    },
    {
      attempts,
      backoff: { baseMs: input.retryBaseMs ?? 2_000, maxMs: MAX_BACKOFF_MS },
      signal: input.abortSignal,
      retryable: (error) => {
        const fault = classifyModelError(error);
        if (fault.kind !== "retry") return false;
        return fault.waitMs === undefined ? true : { waitMs: fault.waitMs };
      },
      exhausted: (error) =>
        new ModelGaveUp(
          `the model provider failed ${attempts} time${attempts === 1 ? "" : "s"} (last: ${reasonOf(error)}: ${messageOf(error)})`,
          { cause: error },
        ),
      onRetry: async ({ failed, delayMs, error }) => {
        if (delayMs > MAX_WAIT_MS)
          throw new ModelGaveUp(
            `the model provider asked to wait ${Math.ceil(delayMs / 1000)} s before trying again (${reasonOf(error)}); retry later`,
            { cause: error },
          );
        await input.onRetry?.({ attempt: failed + 1, of: attempts, delayMs, reason: reasonOf(error) });
      },
    },
  );
}

function reasonOf(error: unknown): string {
  const fault = classifyModelError(error);
  return fault.kind === "retry" ? fault.reason : "";
}

/** One streamed request: text deltas go to onText as they come; tool calls count only once the stream finished. */
async function streamStep(
  model: LanguageModelV3,
  prompt: LanguageModelV3Message[],
  tools: LanguageModelV3FunctionTool[],
  abortSignal: AbortSignal,
  onText: (text: string) => void,
): Promise<ModelStep> {
  let text = "";
  try {
    const { stream } = await model.doStream({ prompt, tools, toolChoice: { type: "auto" }, abortSignal });
    const toolCalls: ModelStep["toolCalls"] = [];
    const reader = stream.getReader();
    let finished: { usage: Usage | undefined } | null = null;
    // Tool inputs that began streaming: each must end in a whole tool call, or the answer was cut.
    const begun = new Set<string>();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        if (!finished) throw new StreamCut("no finish");
        return { text, toolCalls, usage: finished.usage };
      }
      if (value.type === "text-delta") {
        text += value.delta;
        onText(text);
      } else if (value.type === "tool-input-start") {
        begun.add(value.id);
      } else if (value.type === "tool-call") {
        begun.delete(value.toolCallId);
        if (!value.providerExecuted)
          toolCalls.push({ toolCallId: value.toolCallId, toolName: value.toolName, input: parseInput(value.input) });
      } else if (value.type === "error") {
        throw value.error;
      } else if (value.type === "finish") {
        // A provider that ends the stream on an error says so in the finish reason: the step is not complete.
        if (value.finishReason.unified === "error")
          throw new StreamCut(`finish reason ${value.finishReason.raw ?? "error"}`);
        // Out of output tokens inside a tool call: asking again would end the same way.
        if (begun.size > 0 && value.finishReason.unified === "length")
          throw new Error(
            "the answer reached the model's output token limit in the middle of a tool call; ask for smaller steps (e.g. several edits instead of one large write)",
          );
        if (begun.size > 0) throw new StreamCut("a tool call's input never completed");
        // The Responses API's stream that ended without response.completed finishes as "other" with no raw reason.
        if (value.finishReason.unified === "other" && value.finishReason.raw === undefined)
          throw new StreamCut("no completion");
        finished = { usage: toUsage(value.usage) };
      }
    }
  } catch (error) {
    if (abortSignal.aborted && text !== "") throw new StoppedMidStream(text);
    throw error;
  }
}
