import type { LanguageModelV3Message } from "@ai-sdk/provider";
import type { SessionEvent } from "../session/events";

export type ToolCallRef = { callId: string; tool: string; input: unknown };

type AssistantPart = { type: "text"; text: string } | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };
type ToolPart = { type: "tool-result"; toolCallId: string; toolName: string; output: { type: "text" | "error-text"; value: string } };

function resultText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output ?? "");
}

/**
 * Rebuilds the model's conversation from the log (the log, not memory, is the source of truth, so any
 * process can continue a turn). A user message written while tool calls were open is delivered after their
 * results: the next step boundary.
 */
export function buildMessages(
  events: readonly SessionEvent[],
  /**
   * Re-injected right after a compaction summary: the plan's path and text, which a summary must not lose.
   * A function is called only when the log has a compaction (it reads the plan file).
   */
  planReference?: string | null | (() => string | null),
): { messages: LanguageModelV3Message[]; pending: ToolCallRef[]; modelCalls: number } {
  const messages: LanguageModelV3Message[] = [];
  const user = (text: string): LanguageModelV3Message => ({ role: "user", content: [{ type: "text", text }] });
  let open = new Map<string, ToolCallRef>();
  let assistant: AssistantPart[] | null = null;
  let results: ToolPart[] = [];
  let deferred: string[] = [];
  let modelCalls = 0;

  const flushResults = () => {
    if (results.length > 0) messages.push({ role: "tool", content: results });
    results = [];
    if (open.size === 0) {
      for (const text of deferred) messages.push(user(text));
      deferred = [];
    }
  };
  const closeAssistant = () => {
    if (assistant && assistant.length > 0) messages.push({ role: "assistant", content: assistant });
    assistant = null;
  };

  for (const e of events) {
    switch (e.type) {
      case "message.user":
        closeAssistant();
        if (open.size > 0) deferred.push(e.payload.text);
        else {
          flushResults();
          messages.push(user(e.payload.text));
        }
        break;
      case "compaction":
        // Older turns are replaced by their summary (the log keeps them); compaction only happens between steps.
        closeAssistant();
        messages.length = 0;
        results = [];
        deferred = [];
        open = new Map();
        messages.push(user(`Summary of the conversation so far (older messages were compacted):\n\n${e.payload.summary}`));
        {
          const reference = typeof planReference === "function" ? planReference() : planReference;
          if (reference) messages.push(user(reference));
        }
        break;
      case "message.assistant":
        closeAssistant();
        flushResults();
        modelCalls++;
        open = new Map();
        assistant = e.payload.text ? [{ type: "text", text: e.payload.text }] : [];
        break;
      case "tool.called":
        assistant ??= [];
        assistant.push({ type: "tool-call", toolCallId: e.payload.callId, toolName: e.payload.tool, input: e.payload.input ?? {} });
        open.set(e.payload.callId, { callId: e.payload.callId, tool: e.payload.tool, input: e.payload.input });
        break;
      case "tool.result":
        closeAssistant();
        if (!open.delete(e.payload.callId)) break;
        results.push({
          type: "tool-result",
          toolCallId: e.payload.callId,
          toolName: e.payload.tool,
          output: e.payload.ok ? { type: "text", value: resultText(e.payload.output) } : { type: "error-text", value: e.payload.error ?? "failed" },
        });
        if (open.size === 0) flushResults();
        break;
      default:
        break;
    }
  }
  closeAssistant();
  const pending = [...open.values()];
  if (pending.length === 0) flushResults();
  else if (results.length > 0) messages.push({ role: "tool", content: results });
  return { messages, pending, modelCalls };
}
