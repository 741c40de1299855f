"use client";

import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { SessionEvent } from "@/lib/session/log/events";
import { TIMELINE_PAGE, timelineItems } from "@/lib/session/timeline-items";
import type { ReplayView } from "@/lib/session/views/replay-view";
import { TimelineEntry } from "./timeline-entry";
import { ReplayPanel } from "./replay-panel";
import { GO_TO_EVENT } from "./session-tools";

async function fetchEvents(sessionId: string, query: string): Promise<SessionEvent[]> {
  const res = await fetch(`/api/sessions/${sessionId}/events?${query}`);
  if (!res.ok) throw new Error(`Could not load events (${res.status})`);
  return ((await res.json()) as { events: SessionEvent[] }).events;
}

/**
 * The session's log as people read it. The server sends the latest page; earlier pages load on demand,
 * and entries off screen are skipped by the browser (content-visibility), so long sessions stay smooth.
 */
export function SessionTimeline({
  sessionId,
  events,
  rendered,
}: {
  sessionId: string;
  events: SessionEvent[];
  rendered: Record<number, ReactNode>;
}) {
  const [older, setOlder] = useState<SessionEvent[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [replay, setReplay] = useState<ReplayView | null>(null);

  const all = useMemo(() => {
    const bySeq = new Map<number, SessionEvent>();
    for (const e of older) bySeq.set(e.seq, e);
    for (const e of events) bySeq.set(e.seq, e);
    return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }, [older, events]);

  // The server's window slides forward as events arrive; once earlier pages are open, fill any hole between them.
  const lastOlder = older.at(-1)?.seq ?? 0;
  const firstLatest = events[0]?.seq ?? 0;
  useEffect(() => {
    if (lastOlder === 0 || firstLatest <= lastOlder + 1) return;
    let live = true;
    void fetchEvents(sessionId, `after=${lastOlder}&limit=${Math.min(5000, firstLatest - lastOlder - 1)}`).then(
      (gap) => live && setOlder((prev) => [...prev, ...gap]),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [sessionId, lastOlder, firstLatest]);

  const first = all[0]?.seq ?? 1;
  const loadEarlier = async () => {
    setLoading(true);
    setError(null);
    try {
      const page = await fetchEvents(sessionId, `before=${first}&limit=${TIMELINE_PAGE}`);
      setOlder((prev) => [...page, ...prev]);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load earlier events");
    } finally {
      setLoading(false);
    }
  };

  const items = useMemo(() => timelineItems(all), [all]);

  const select = async (seq: number) => {
    const res = await fetch(`/api/sessions/${sessionId}/state?at=${seq}`);
    if (res.ok) setReplay(((await res.json()) as { state: ReplayView }).state);
    else setError(`Could not replay to event ${seq} (${res.status})`);
  };
  // Jump: load earlier pages until the event is on the page, show its state, and scroll to its line.
  const goTo = async (seq: number) => {
    setError(null);
    let from = first;
    const pages: SessionEvent[] = [];
    while (seq < from && from > 1) {
      const page = await fetchEvents(sessionId, `before=${from}&limit=${Math.min(5000, from - Math.max(1, seq - 20))}`);
      if (page.length === 0) break;
      pages.unshift(...page);
      from = page[0]!.seq;
    }
    if (pages.length > 0) setOlder((prev) => [...pages, ...prev]);
    await select(seq);
    // The line of an event that renders nothing (a turn start) is the next one that does.
    requestAnimationFrame(() => {
      const target = [...document.querySelectorAll<HTMLElement>("[data-testid=timeline-item]")].find(
        (el) => Number(el.dataset.seq) >= seq,
      );
      target?.scrollIntoView({ block: "center" });
    });
  };
  // "Go to event #" sits in the session's tools menu; it asks here, where the pages and the replay are.
  const goToLatest = useRef(goTo);
  goToLatest.current = goTo;
  useEffect(() => {
    const onGo = (e: Event) => void goToLatest.current((e as CustomEvent<number>).detail);
    window.addEventListener(GO_TO_EVENT, onGo);
    return () => window.removeEventListener(GO_TO_EVENT, onGo);
  }, []);
  return (
    <div className="flex flex-col gap-2">
      {replay ? <ReplayPanel sessionId={sessionId} state={replay} onClose={() => setReplay(null)} /> : null}
      {first > 1 ? (
        <button
          type="button"
          data-testid="load-earlier"
          onClick={() => void loadEarlier()}
          disabled={loading}
          className="self-center rounded border px-3 py-1 text-xs"
        >
          {loading ? "Loading…" : `Show earlier events (${first - 1} more)`}
        </button>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-rose-700">
          {error}
        </p>
      ) : null}
      <ol data-testid="timeline" aria-label="Session timeline" className="flex flex-col gap-2">
        {items.map((item) => (
          <TimelineEntry
            key={`${item.kind}-${item.seq}`}
            item={item}
            rendered={rendered[item.seq]}
            selected={replay?.seq === item.seq}
            onSelect={(seq) => void select(seq)}
          />
        ))}
      </ol>
    </div>
  );
}
