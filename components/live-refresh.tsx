"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** One SSE stream per open session: any new event re-renders the page from the server. */
export function LiveRefresh({ sessionId, after }: { sessionId: string; after: number }) {
  const router = useRouter();
  useEffect(() => {
    const source = new EventSource(`/api/sessions/${sessionId}/stream?after=${after}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.addEventListener("session-event", () => {
      clearTimeout(timer);
      timer = setTimeout(() => router.refresh(), 50);
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [sessionId, after, router]);
  return null;
}
