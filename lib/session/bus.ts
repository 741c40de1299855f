import { EventEmitter } from "node:events";
import type { SessionEvent } from "./log/events";

// In-process fan-out to open SSE streams, fed only after a commit. Other instances catch up from the log
// (streams resume by seq), so nothing here is a source of truth.
// On globalThis: Next loads this module once per bundle (the routes', the instrumentation hook's, which also serves
// the live streams: scripts/stream-routes.mjs), and a commit published by one copy must reach the streams of all.
const registry = globalThis as unknown as { plangateBus?: EventEmitter };
const emitter = (registry.plangateBus ??= new EventEmitter().setMaxListeners(0));

/** The channel every session's events are published on too (pages that list sessions: the desk, home, a team). */
const ANY = "*";

export function publishEvents(sessionId: string, events: SessionEvent[]): void {
  if (events.length === 0) return;
  emitter.emit(sessionId, events);
  emitter.emit(ANY, sessionId);
}

/** The channel of sessions whose webhook deliveries changed (a delivery made or attempted), not their log. */
const TOUCHED = "touched";

/**
 * A session's webhook deliveries changed: the pages that show deliveries re-render; no event is sent to the
 * session's own stream, and pages that show only sessions (the desk, home) are not told. This process only:
 * lib/session/log-watch's announceTouched tells every instance.
 */
export function publishTouched(sessionId: string): void {
  emitter.emit(TOUCHED, sessionId);
}

/** Told the id of every session whose deliveries this process changed. */
export function subscribeTouched(listener: (sessionId: string) => void): () => void {
  emitter.on(TOUCHED, listener);
  return () => emitter.off(TOUCHED, listener);
}

/** Told the id of every session whose log this process committed to. */
export function subscribeAnySession(listener: (sessionId: string) => void): () => void {
  emitter.on(ANY, listener);
  return () => emitter.off(ANY, listener);
}

export function subscribeEvents(sessionId: string, listener: (events: SessionEvent[]) => void): () => void {
  emitter.on(sessionId, listener);
  return () => emitter.off(sessionId, listener);
}

/** The text a model step has produced so far: shown live, never stored (the step's event holds the final text). */
export function publishDraft(sessionId: string, text: string): void {
  emitter.emit(`${sessionId}:draft`, text);
}

export function subscribeDrafts(sessionId: string, listener: (text: string) => void): () => void {
  emitter.on(`${sessionId}:draft`, listener);
  return () => emitter.off(`${sessionId}:draft`, listener);
}
