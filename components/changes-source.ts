"use client";

/** Which sessions changed, as the server's one stream per tab says (GET /api/changes). */
export type Changes = { sessions: string[] };

type Listener = (changes: Changes | "reconnected") => void;

// One EventSource per tab, however many parts of the page listen: opened with the first listener, closed with the last.
const listeners = new Set<Listener>();
let source: EventSource | null = null;

function open(): EventSource {
  const s = new EventSource("/api/changes");
  let dropped = false;
  s.addEventListener("changed", (message) => {
    let changes: Changes = { sessions: [] };
    try {
      changes = JSON.parse((message as MessageEvent<string>).data) as Changes;
    } catch {
      // Unreadable: treated as "something changed".
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

/** Listens to the tab's change stream; returns the unsubscribe. */
export function onChanges(listener: Listener): () => void {
  listeners.add(listener);
  source ??= open();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      source?.close();
      source = null;
    }
  };
}
