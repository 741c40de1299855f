import type { LanguageModelV3Message } from "@ai-sdk/provider";
import type { SessionEvent } from "../session/log/events";
import { emptyView, extendView, viewMessages, type ToolCallRef } from "./conversation-view";

export type { ToolCallRef } from "./conversation-view";

/**
 * Rebuilds the model's conversation from the whole log (the log, not memory, is the source of truth, so any
 * process can continue a turn). A user message written while tool calls were open is delivered after their
 * results: the next step boundary. The driver keeps the same view incrementally (conversation-view.ts).
 */
export function buildMessages(
  events: readonly SessionEvent[],
  /**
   * Re-injected right after a compaction summary: the plan's path and text, which a summary must not lose.
   * A function is called only when the log has a compaction (it reads the plan file).
   */
  planReference?: string | null | (() => string | null),
): { messages: LanguageModelV3Message[]; pending: ToolCallRef[]; modelCalls: number } {
  return viewMessages(extendView(emptyView(), events), planReference);
}
