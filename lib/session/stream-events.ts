import type { Db } from "../db/client";
import { subscribeDrafts, subscribeEvents } from "./bus";
import { readEvents } from "./read-events";

const HEARTBEAT_MS = 15_000;
const POLL_MS = 1_000;

/**
 * SSE of a session's log from a seq on. Events are sent in seq order exactly once per stream; the in-process bus
 * makes it immediate, and a slow poll of the log catches what other server processes appended.
 */
export function streamSessionEvents(db: Db, sessionId: string, after: number, signal: AbortSignal): ReadableStream<Uint8Array> {
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
      const catchUpNow = async () => {
        if (closed) return;
        for (;;) {
          const page = await readEvents(db, sessionId, { after: last, limit: 500 });
          for (const e of page) send(`id: ${e.seq}\nevent: session-event\ndata: ${JSON.stringify(e)}\n\n`);
          if (page.length > 0) last = page.at(-1)?.seq ?? last;
          if (page.length < 500) break;
        }
      };
      const catchUp = () => {
        busy = busy.then(catchUpNow).catch(() => undefined);
      };
      send(`retry: 1000\n: connected\n\n`);
      catchUp();
      // Committed events published in this process go out as they are when they follow on; a gap (another
      // process appended, or a catch-up is still running) falls back to reading the log.
      const unsubscribe = subscribeEvents(sessionId, (published) => {
        busy = busy.then(() => {
          if (closed) return;
          if (published[0]?.seq !== last + 1) return catchUpNow();
          for (const e of published) send(`id: ${e.seq}\nevent: session-event\ndata: ${JSON.stringify(e)}\n\n`);
          last = published.at(-1)?.seq ?? last;
        }).catch(() => undefined);
      });
      // Drafts (a model's text as it streams) go out as they come, without an id: they are not log events.
      const unsubscribeDrafts = subscribeDrafts(sessionId, (text) => send(`event: draft\ndata: ${JSON.stringify({ text })}\n\n`));
      const poll = setInterval(catchUp, POLL_MS);
      const heartbeat = setInterval(() => send(`: heartbeat ${Date.now()}\n\n`), HEARTBEAT_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        unsubscribeDrafts();
        clearInterval(poll);
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      stop = close;
      signal.addEventListener("abort", close);
    },
    cancel() {
      stop();
    },
  });
}
