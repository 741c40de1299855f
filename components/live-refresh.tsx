"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * One SSE stream per open session: each new event re-renders the page from the server. The stream starts
 * after the rendered seq; the browser reconnects with Last-Event-ID, so nothing is missed in between.
 */
export function LiveRefresh({ sessionId, after }: { sessionId: string; after: number }) {
  const router = useRouter();
  const start = useRef(after);
  useEffect(() => {
    const source = new EventSource(`/api/sessions/${sessionId}/stream?after=${start.current}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.addEventListener("session-event", () => {
      // A burst of events (a step logs several) costs one refresh.
      clearTimeout(timer);
      timer = setTimeout(() => router.refresh(), 30);
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [sessionId, router]);
  return null;
}
