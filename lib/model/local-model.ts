import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";

/** What a local (in-process) model decides for one request. */
export type LocalStep = { text?: string; toolCalls?: { name: string; input: unknown }[]; streamDelayMs?: number };

export type LocalDecider = (request: {
  prompt: LanguageModelV3Prompt;
  tools: string[];
  options: LanguageModelV3CallOptions;
}) => LocalStep | Promise<LocalStep>;

let counter = 0;

/**
 * Wraps a deterministic decider as an AI SDK LanguageModelV3, so local models go through exactly the same
 * generateText path (tool schemas, validation, messages) as remote providers.
 */
export function localModel(provider: string, modelId: string, decide: LocalDecider): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider,
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const tools = (options.tools ?? []).flatMap((t) => (t.type === "function" ? [t.name] : []));
      const step = await decide({ prompt: options.prompt, tools, options });
      const content: LanguageModelV3Content[] = [];
      if (step.text) content.push({ type: "text", text: step.text });
      for (const call of step.toolCalls ?? []) {
        content.push({
          type: "tool-call",
          toolCallId: `call_${Date.now().toString(36)}_${++counter}`,
          toolName: call.name,
          input: JSON.stringify(call.input ?? {}),
        });
      }
      const hasCalls = (step.toolCalls?.length ?? 0) > 0;
      return {
        content,
        finishReason: { unified: hasCalls ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 0, text: 0, reasoning: 0 },
        },
        warnings: [],
      };
    },
    // Streams the same answer word by word (with the step's delay between words), as a remote model would.
    async doStream(options) {
      const tools = (options.tools ?? []).flatMap((t) => (t.type === "function" ? [t.name] : []));
      const step = await decide({ prompt: options.prompt, tools, options });
      const words = (step.text ?? "").split(/(?<=\s)/);
      const delay = Math.max(0, step.streamDelayMs ?? 0);
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          if (words.join("") !== "") {
            controller.enqueue({ type: "text-start", id: "t" });
            for (const w of words) {
              if (options.abortSignal?.aborted) break;
              controller.enqueue({ type: "text-delta", id: "t", delta: w });
              if (delay > 0) await new Promise((r) => setTimeout(r, delay));
            }
            controller.enqueue({ type: "text-end", id: "t" });
          }
          for (const call of step.toolCalls ?? []) {
            controller.enqueue({
              type: "tool-call",
              toolCallId: `call_${Date.now().toString(36)}_${++counter}`,
              toolName: call.name,
              input: JSON.stringify(call.input ?? {}),
            });
          }
          const hasCalls = (step.toolCalls?.length ?? 0) > 0;
          controller.enqueue({
            type: "finish",
            finishReason: { unified: hasCalls ? "tool-calls" : "stop", raw: undefined },
            usage: {
              inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: 0, text: 0, reasoning: 0 },
            },
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}

/** The text of the latest user message in a prompt (what the local models react to). */
export function lastUserText(prompt: LanguageModelV3Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i];
    if (m?.role !== "user") continue;
    return m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
  }
  return "";
}
