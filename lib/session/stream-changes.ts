// One stream per open list page (the desk, home, a team's mailbox): which visible sessions changed, pushed as it
// happens, so a page re-renders only when something it may show changed and costs nothing while nothing does.
import type { Db } from "../db/client";
import { listSessionsActiveSince } from "../db/session-reads/change-markers";
import { findSessionOwner } from "../db/sessions";
import { subscribeAnySession, subscribeTouched } from "./bus";
import { watchAnyLog, watchTouched } from "./log-watch";
import { liveStream } from "./live-stream";

/** At most one message per window: a busy agent (many events a second) costs a page one re-render a second. */
export const CHANGES_WINDOW_MS = 1_000;

// A session's workspace never changes: remembered (bounded) so a busy session costs one read, not one per event.
const workspaces = new Map<string, string>();
async function workspaceOf(db: Db, sessionId: string): Promise<string | null> {
  const known = workspaces.get(sessionId);
  if (known !== undefined) return known;
  const owner = await findSessionOwner(db, sessionId);
  if (!owner) return null;
  if (workspaces.size >= 10_000) workspaces.delete(workspaces.keys().next().value as string);
  workspaces.set(sessionId, owner.workspace);
  return owner.workspace;
}

/**
 * A stream ends after this long; the browser opens it again at once, as the person it is now (a role taken away or
 * a sign-out since then is then in force) and the page re-renders once.
 */
export const CHANGES_LIFETIME_MS = 10 * 60_000;

/** Which sessions changed: their log (`sessions`), or only their webhook deliveries (`deliveries`). */
export type Changed = { sessions: string[]; deliveries: string[] };

/**
 * SSE: `event: changed` with the ids of the sessions that changed (Changed), only those in workspaces `visible`
 * allows: a page that shows no deliveries skips a message that names only `deliveries`.
 * `since` (ms): when the page this stream keeps live read what it shows; what changed from then until the stream
 * opened is told at once, so nothing committed in between is missed. Nothing is sent while nothing changes but a
 * heartbeat a quarter of a minute.
 */
export function streamChanges(
  db: Db,
  visible: (workspace: string) => boolean,
  signal: AbortSignal,
  since?: number,
): ReadableStream<Uint8Array> {
  return liveStream(signal, ({ send, closed, close }) => {
    let pending: { sessions: Set<string>; deliveries: Set<string> } | null = null;
    let timer: NodeJS.Timeout | null = null;
    let lastSent = 0;
    const flush = () => {
      timer = null;
      if (!pending) return;
      const changed: Changed = { sessions: [...pending.sessions], deliveries: [...pending.deliveries] };
      pending = null;
      lastSent = Date.now();
      send(`event: changed\ndata: ${JSON.stringify(changed)}\n\n`);
    };
    const mark = (sessionId: string, what: keyof Changed) => {
      if (closed()) return;
      pending ??= { sessions: new Set(), deliveries: new Set() };
      pending[what].add(sessionId);
      // Leading edge when the page has been quiet, then at most once a window.
      timer ??= setTimeout(flush, Math.max(0, lastSent + CHANGES_WINDOW_MS - Date.now()));
    };
    const heard = (what: keyof Changed) => (sessionId: string) => {
      if (closed()) return;
      void workspaceOf(db, sessionId)
        .then((workspace) => {
          if (workspace !== null && visible(workspace)) mark(sessionId, what);
        })
        .catch(() => undefined);
    };
    const changed = heard("sessions");
    const touched = heard("deliveries");
    const stops = [
      subscribeAnySession(changed),
      watchAnyLog(db, changed),
      subscribeTouched(touched),
      watchTouched(db, touched),
    ];
    // After subscribing: a commit from here on is heard, one before is read back (a second's margin for clocks).
    // Only the last minute: a stream reopened later (its lifetime ended, the network dropped) has its page
    // re-rendered by the browser on reconnect anyway, and need not look up every session of a long while.
    if (since !== undefined)
      void listSessionsActiveSince(db, new Date(Math.max(since, Date.now() - 60_000) - 1_000), 200)
        .then((ids) => ids.forEach(changed))
        .catch(() => undefined);
    const end = setTimeout(close, CHANGES_LIFETIME_MS);
    return () => {
      clearTimeout(end);
      if (timer) clearTimeout(timer);
      for (const stop of stops) stop();
    };
  });
}
