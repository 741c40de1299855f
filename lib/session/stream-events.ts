import type { Db } from "../db/client";
import { readCommittedEvents } from "../db/session-log/read-events";
import { subscribeDrafts, subscribeEvents } from "./bus";
import type { SessionEvent } from "./log/events";
import { liveStream } from "./live-stream";
import { watchLog } from "./log-watch";

const PAGE = 500;

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
  return liveStream(signal, ({ send, closed }) => {
    let last = after;
    let busy: Promise<void> = Promise.resolve();
    const sendEvents = (events: readonly SessionEvent[]) => {
      for (const e of events) send(`id: ${e.seq}\nevent: session-event\ndata: ${JSON.stringify(e)}\n\n`);
      last = events.at(-1)?.seq ?? last;
    };
    const catchUpNow = async () => {
      for (;;) {
        if (closed()) return;
        const page = await readCommittedEvents(db, sessionId, { after: last, limit: PAGE });
        sendEvents(page);
        if (page.length < PAGE) return;
      }
    };
    // Everything that sends runs on this one chain, so `last` is never read while a send is half done.
    const enqueue = (work: () => Promise<void> | void) => {
      busy = busy.then(work).catch(() => undefined);
    };
    enqueue(catchUpNow);
    // Committed events published in this process go out as they are when they follow on; a gap (another
    // process appended, or a catch-up is still running) falls back to reading the log.
    const unsubscribe = subscribeEvents(sessionId, (published) => {
      enqueue(() => {
        if (closed()) return;
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
    return () => {
      unsubscribe();
      unwatch();
      unsubscribeDrafts();
    };
  });
}
