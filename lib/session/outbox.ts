import { insertOutboxEntries } from "../db/outbox-rows";
import type { Executor } from "../db/client";
import { newId } from "../id";
import type { EventType, SessionEvent } from "./log/events";

/**
 * Events that something outside the log acts on after they commit (lib/webhooks, lib/notify). Each gets an "EventOutbox"
 * row in the append's own transaction: what was acknowledged is owed, even if the process dies right after
 * the commit. The session layer only records and announces them; consumers live above it and register here.
 */
export const OUTBOX_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  "review.asked",
  "review.answered",
  "permission.asked",
  "permission.replied",
  "verification.completed",
]);

export async function insertOutboxRows(
  run: Executor,
  sessionId: string,
  events: readonly SessionEvent[],
  at: Date,
): Promise<void> {
  await insertOutboxEntries(
    run,
    events
      .filter((e) => OUTBOX_EVENT_TYPES.has(e.type))
      .map((e) => ({ id: newId("obx", at.getTime()), sessionId, seq: e.seq, type: e.type, createdAt: at })),
  );
}

type Listener = () => void;
// On globalThis: Next may load this module once per bundle (routes, instrumentation), and a consumer started at
// boot must hear commits made by any of them. A missed signal only delays: consumers also sweep the table.
const registry = globalThis as unknown as { plangateOutboxListeners?: Set<Listener> };
const listeners = (registry.plangateOutboxListeners ??= new Set());

/** Called after a commit: wakes the consumers when it wrote outbox rows. */
export function announceOutbox(events: readonly SessionEvent[]): void {
  if (!events.some((e) => OUTBOX_EVENT_TYPES.has(e.type))) return;
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      console.error("plangate: an outbox listener failed", error);
    }
  }
}

export function onOutboxCommitted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
