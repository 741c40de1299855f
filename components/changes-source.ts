"use client";

/**
 * Which sessions changed, as the server's one stream per tab says (GET /api/changes): their log, or only their
 * webhook deliveries. "reconnected": anything may have changed meanwhile.
 */
export type Changes = { sessions: string[]; deliveries: string[] };

type Listener = (changes: Changes | "reconnected") => void;

// One EventSource per tab, however many parts of the page listen: opened with the first listener, closed with the last.
const listeners = new Set<Listener>();
let source: EventSource | null = null;

function open(since: number | undefined): EventSource {
  const s = new EventSource(since === undefined ? "/api/changes" : `/api/changes?since=${since}`);
  let dropped = false;
  s.addEventListener("changed", (message) => {
    let changes: Changes | "reconnected" = "reconnected";
    try {
      const read = JSON.parse((message as MessageEvent<string>).data) as Partial<Changes>;
      changes = { sessions: read.sessions ?? [], deliveries: read.deliveries ?? [] };
    } catch {
      // Unreadable: treated as "anything may have changed".
    }
    for (const l of listeners) l(changes);
  });
  s.onerror = () => {
    dropped = true;
  };
  s.onopen = () => {
    // A change may have come and gone while the stream was down: listeners look again.
    if (dropped) for (const l of listeners) l("reconnected");
    dropped = false;
  };
  return s;
}

/**
 * Listens to the tab's change stream; returns the unsubscribe. `since`: when the page read what it shows (the
 * server's clock), so that what changed before the stream opened is told too.
 */
export function onChanges(listener: Listener, since?: number): () => void {
  listeners.add(listener);
  source ??= open(since);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      source?.close();
      source = null;
    }
  };
}
