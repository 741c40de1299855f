import type { SessionEvent } from "./log/events";

/**
 * Pure: the tool calls of the latest model step that have no result yet. A new step (or a compaction) closes
 * whatever the one before left open, as the conversation the model is sent does.
 */
export function openCalls(events: readonly SessionEvent[]): string[] {
  const open = new Set<string>();
  for (const e of events) {
    if (e.type === "message.assistant" || e.type === "compaction") open.clear();
    else if (e.type === "tool.called") open.add(e.payload.callId);
    else if (e.type === "tool.result") open.delete(e.payload.callId);
  }
  return [...open];
}
