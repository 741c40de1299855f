import type { NewEvent } from "./log/events";

/** Tool calls in a log that have no result yet (and would run, or run again, at the session's next step). */
export function danglingCalls(events: readonly NewEvent[]): { callId: string; tool: string }[] {
  const answered = new Set(events.flatMap((e) => (e.type === "tool.result" ? [e.payload.callId] : [])));
  return events.flatMap((e) =>
    e.type === "tool.called" && !answered.has(e.payload.callId)
      ? [{ callId: e.payload.callId, tool: e.payload.tool }]
      : [],
  );
}

/** Results that close every dangling call as not run, with the reason the model reads. */
export function cancelDangling(events: readonly NewEvent[], reason: string): NewEvent[] {
  return danglingCalls(events).map((c) => ({
    type: "tool.result",
    payload: { callId: c.callId, tool: c.tool, ok: false, error: reason },
  }));
}
