"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { notifyIfHidden, waitingFor } from "./notify";

/**
 * One SSE stream per open session: each new event re-renders the page from the server. The stream starts
 * after the rendered seq; the browser reconnects with Last-Event-ID, so nothing is missed in between.
 */
export function LiveRefresh({
  sessionId,
  after,
  title = "Plangate",
}: {
  sessionId: string;
  after: number;
  title?: string;
}) {
  const router = useRouter();
  const start = useRef(after);
  const [lost, setLost] = useState(false);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<string | null>(null);
  useEffect(() => {
    const source = new EventSource(`/api/sessions/${sessionId}/stream?after=${start.current}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The browser retries on its own; the banner says so while it does, and goes when the stream is back.
    source.onerror = () => setLost(true);
    source.onopen = () => {
      setOpen(true);
      setLost((was) => {
        if (was) router.refresh();
        return false;
      });
    };
    // The model's text as it streams; the step's own event replaces it.
    source.addEventListener("draft", (message) => {
      try {
        setDraft((JSON.parse((message as MessageEvent<string>).data) as { text: string }).text);
      } catch {
        // Not a draft this page reads.
      }
    });
    source.addEventListener("session-event", (message) => {
      try {
        const event = JSON.parse((message as MessageEvent<string>).data) as Parameters<typeof waitingFor>[0];
        // The step's own event replaces the streamed text; a failed attempt's text is dropped before its retry.
        if (event.type === "message.assistant" || event.type === "turn.ended" || event.type === "model.retrying")
          setDraft(null);
        const text = waitingFor(event);
        if (text) void notifyUnlessOthers(event, text, title);
      } catch {
        // Not an event this page reads.
      }
      // A burst of events (a step logs several) costs one refresh.
      clearTimeout(timer);
      timer = setTimeout(() => router.refresh(), 30);
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [sessionId, router, title]);
  return (
    <>
      {/* Whether this page is live yet: what a test waits on instead of a guess of how long connecting takes. */}
      <span hidden data-testid="live-stream" data-state={open ? "open" : "connecting"} />
      {lost ? (
        <p
          data-testid="connection-lost"
          role="alert"
          className="sticky top-0 z-20 rounded border border-amber-400 bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          Connection to the server lost: this page is not live. Reconnecting…
        </p>
      ) : null}
      {draft ? (
        <div
          data-testid="streaming-text"
          aria-live="polite"
          className="rounded border border-dashed border-zinc-300 px-3 py-2 text-sm whitespace-pre-wrap break-words dark:border-zinc-700"
        >
          <span className="sr-only">The agent is writing: </span>
          {draft}
          <span
            aria-hidden="true"
            className="ml-0.5 inline-block h-[1em] w-[0.4em] animate-pulse bg-current align-[-0.125em]"
          />
        </div>
      ) : null}
    </>
  );
}

/**
 * A plan whose review policy only others can satisfy is not this person's to be woken for: the review says so
 * (`policy.needsYou`); anything else notifies as before.
 */
async function notifyUnlessOthers(
  event: { type?: string; payload?: { reviewId?: string } },
  text: string,
  title: string,
) {
  if (event.type === "review.asked" && event.payload?.reviewId) {
    try {
      const res = await fetch(`/api/reviews/${encodeURIComponent(event.payload.reviewId)}`);
      const body = (await res.json()) as { review?: { policy?: { needsYou?: boolean } } };
      if (body.review?.policy?.needsYou === false) return;
    } catch {
      // Unknown: notify, as a review that needs a person is the safer side to err on.
    }
  }
  notifyIfHidden(text, title);
}
