import { EventEmitter } from "node:events";
import type { SessionEvent } from "./events";

// In-process fan-out to open SSE streams, fed only after a commit. Other instances catch up from the log
// (streams resume by seq), so nothing here is a source of truth.
const emitter = new EventEmitter();
emitter.setMaxListeners(0);

export function publishEvents(sessionId: string, events: SessionEvent[]): void {
  if (events.length > 0) emitter.emit(sessionId, events);
}

export function subscribeEvents(sessionId: string, listener: (events: SessionEvent[]) => void): () => void {
  emitter.on(sessionId, listener);
  return () => emitter.off(sessionId, listener);
}
