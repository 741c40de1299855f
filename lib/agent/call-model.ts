import { APICallError, type LanguageModelV3, type LanguageModelV3FunctionTool, type LanguageModelV3Message } from "@ai-sdk/provider";

export type ModelStep = { text: string; toolCalls: { toolCallId: string; toolName: string; input: unknown }[] };

const RETRIES = 2;

function parseInput(raw: string): unknown {
  try {
    return JSON.parse(raw || "{}");
  } catch {
    // Kept as text: the gate validates every input and tells the model what was wrong.
    return raw;
  }
}

/**
 * One model request through the AI SDK provider interface. The turn's loop is ours (durable, rebuilt from the
 * log at every step), so this calls the provider directly instead of generateText, which re-validates the whole
 * typed history with zod on every call (its cost grew with every step of a turn). Retries follow the SDK's rule:
 * only errors the provider marks retryable, with backoff.
 */
export async function callModel(input: {
  model: LanguageModelV3;
  system: string;
  messages: LanguageModelV3Message[];
  tools: LanguageModelV3FunctionTool[];
  abortSignal: AbortSignal;
  /** The text so far, as it streams (the step is streamed only when this is given). */
  onText?: (text: string) => void;
}): Promise<ModelStep> {
  const prompt: LanguageModelV3Message[] = [{ role: "system", content: input.system }, ...input.messages];
  for (let attempt = 0; ; attempt++) {
    try {
      if (input.onText) return await streamStep(input.model, prompt, input.tools, input.abortSignal, input.onText);
      const result = await input.model.doGenerate({
        prompt,
        tools: input.tools,
        toolChoice: { type: "auto" },
        abortSignal: input.abortSignal,
      });
      const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
      const toolCalls = result.content.flatMap((c) =>
        c.type === "tool-call" && !c.providerExecuted ? [{ toolCallId: c.toolCallId, toolName: c.toolName, input: parseInput(c.input) }] : [],
      );
      return { text, toolCalls };
    } catch (error) {
      if (attempt >= RETRIES || !APICallError.isInstance(error) || !error.isRetryable || input.abortSignal.aborted) throw error;
      await new Promise((r) => setTimeout(r, 2000 * 2 ** attempt));
    }
  }
}

/** One streamed request: text deltas go to onText as they come; tool calls count only once complete. */
async function streamStep(model: LanguageModelV3, prompt: LanguageModelV3Message[], tools: LanguageModelV3FunctionTool[], abortSignal: AbortSignal, onText: (text: string) => void): Promise<ModelStep> {
  const { stream } = await model.doStream({ prompt, tools, toolChoice: { type: "auto" }, abortSignal });
  let text = "";
  const toolCalls: ModelStep["toolCalls"] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") {
      text += value.delta;
      onText(text);
    } else if (value.type === "tool-call" && !value.providerExecuted) {
      toolCalls.push({ toolCallId: value.toolCallId, toolName: value.toolName, input: parseInput(value.input) });
    } else if (value.type === "error") {
      throw value.error instanceof Error ? value.error : new Error(String(value.error));
    }
  }
  return { text, toolCalls };
}
