// The plumbing every live SSE body shares: sending while open, one heartbeat timer for all, closing on abort and
// on server stop, and letting go of what the stream subscribed to.

const HEARTBEAT_MS = 15_000;

// One timer for every open stream's heartbeat: idle streams own no timers of their own.
const heartbeats = new Set<() => void>();
let heartbeatTimer: NodeJS.Timeout | null = null;

function onHeartbeat(beat: () => void): () => void {
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
const openStreams = (registry.plangateOpenStreams ??= new Set());

/** Ends every live stream (the server is stopping): their connections finish, so the server can close. */
export function closeOpenStreams(): void {
  for (const close of [...openStreams]) close();
}

/** What a stream's body is given: send text while it is open, ask whether it is closed, or close it. */
export type LiveStream = { send: (text: string) => void; closed: () => boolean; close: () => void };

/**
 * A live SSE body. `start` subscribes what the stream follows and returns the cleanup; the stream sends `retry` and
 * a heartbeat comment, and closes (running the cleanup once) on the client's abort, on server stop, or when asked.
 */
export function liveStream(signal: AbortSignal, start: (s: LiveStream) => () => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop = () => undefined as void;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      let cleanup = () => undefined as void;
      const close = () => {
        if (closed) return;
        closed = true;
        openStreams.delete(close);
        cleanup();
        stopHeartbeat();
        signal.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      send(`retry: 1000\n: connected\n\n`);
      const stopHeartbeat = onHeartbeat(() => send(`: heartbeat ${Date.now()}\n\n`));
      stop = close;
      openStreams.add(close);
      cleanup = start({ send, closed: () => closed, close });
      if (signal.aborted) close();
      else signal.addEventListener("abort", close);
    },
    cancel() {
      stop();
    },
  });
}
