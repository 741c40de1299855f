import { withTransaction, type Db } from "../db/client";
import { readEvents } from "../db/session-log/read-events";
import { subscribeDrafts, subscribeEvents } from "./bus";
import type { SessionEvent } from "../core/events";
import { watchLog } from "./log-watch";

const HEARTBEAT_MS = 15_000;
const PAGE = 500;

// One timer for every open stream's heartbeat: idle streams own no timers of their own.
const heartbeats = new Set<() => void>();
let heartbeatTimer: NodeJS.Timeout | null = null;

export function onHeartbeat(beat: () => void): () => void {
  heartbeats.add(beat);
  heartbeatTimer ??= setInterval(() => {
    for (const b of heartbeats) b();
  }, HEARTBEAT_MS);
  return () => {
    heartbeats.delete(beat);
    if (heartbeats.size === 0 && heartbeatTimer) {
      clearInterval(heartbeatTimer);
      heartbeatTimer = null;
    }
  };
}

// Every live stream's close, on globalThis: Next may load this module more than once (route and instrumentation
// bundles), and a stopping server must reach them all.
const registry = globalThis as unknown as { plangateOpenStreams?: Set<() => void> };
export const openStreams = (registry.plangateOpenStreams ??= new Set());

/** Ends every live stream (the server is stopping): their connections finish, so the server can close. */
export function closeOpenStreams(): void {
  for (const close of [...openStreams]) close();
}

// Under the connection's transaction lock: the app shares one connection, and a read interleaved with another
// caller's open transaction would see (and send) events that may still roll back.
function readCommitted(db: Db, sessionId: string, after: number): Promise<SessionEvent[]> {
  return withTransaction(db, (trx) => readEvents(trx, sessionId, { after, limit: PAGE }));
}

/**
 * SSE of a session's log from a seq on. Events are sent in seq order exactly once per stream; the in-process bus
 * makes it immediate, and the shared log watcher (one per process, not per stream) catches what other server
 * processes appended.
 */
export function streamSessionEvents(
  db: Db,
  sessionId: string,
  after: number,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let last = after;
  let closed = false;
  let busy: Promise<void> = Promise.resolve();
  let stop = () => {
    closed = true;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const sendEvents = (events: readonly SessionEvent[]) => {
        for (const e of events) send(`id: ${e.seq}\nevent: session-event\ndata: ${JSON.stringify(e)}\n\n`);
        last = events.at(-1)?.seq ?? last;
      };
      const catchUpNow = async () => {
        for (;;) {
          if (closed) return;
          const page = await readCommitted(db, sessionId, last);
          sendEvents(page);
          if (page.length < PAGE) return;
        }
      };
      // Everything that sends runs on this one chain, so `last` is never read while a send is half done.
      const enqueue = (work: () => Promise<void> | void) => {
        busy = busy.then(work).catch(() => undefined);
      };
      send(`retry: 1000\n: connected\n\n`);
      enqueue(catchUpNow);
      // Committed events published in this process go out as they are when they follow on; a gap (another
      // process appended, or a catch-up is still running) falls back to reading the log.
      const unsubscribe = subscribeEvents(sessionId, (published) => {
        enqueue(() => {
          if (closed) return;
          const fresh = published.filter((e) => e.seq > last);
          if (fresh.length === 0) return;
          if (fresh[0]?.seq !== last + 1) return catchUpNow();
          sendEvents(fresh);
        });
      });
      const unwatch = watchLog(db, sessionId, (lastSeq) => {
        if (lastSeq > last) enqueue(() => (lastSeq > last ? catchUpNow() : undefined));
      });
      // Drafts (a model's text as it streams) go out as they come, without an id: they are not log events.
      const unsubscribeDrafts = subscribeDrafts(sessionId, (text) =>
        send(`event: draft\ndata: ${JSON.stringify({ text })}\n\n`),
      );
      const stopHeartbeat = onHeartbeat(() => send(`: heartbeat ${Date.now()}\n\n`));
      const close = () => {
        if (closed) return;
        closed = true;
        openStreams.delete(close);
        unsubscribe();
        unwatch();
        unsubscribeDrafts();
        stopHeartbeat();
        signal.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      stop = close;
      openStreams.add(close);
      if (signal.aborted) close();
      else signal.addEventListener("abort", close);
    },
    cancel() {
      stop();
    },
  });
}
