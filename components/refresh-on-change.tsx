"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { onChanges } from "./changes-source";

/**
 * Re-renders a list page when a session it may show changes (the server pushes which, over one stream per tab):
 * nothing is fetched or rendered while nothing happens. A change while the tab is hidden re-renders it once it is
 * shown again. `since`: when the server read what the page shows (a change before its stream opened is told too).
 * `session`: a page about one session re-renders only when that one changed.
 */
export function RefreshOnChange({ since, session }: { since: number; session?: string }) {
  const router = useRouter();
  // The first render's: the tab's stream stays open across re-renders, so it has missed nothing since.
  const first = useRef(since);
  useEffect(() => {
    let stale = false;
    const onVisible = () => {
      if (document.visibilityState === "visible" && stale) {
        stale = false;
        router.refresh();
      }
    };
    const stop = onChanges((changes) => {
      if (session !== undefined && changes !== "reconnected" && !changes.sessions.includes(session)) return;
      if (document.visibilityState === "visible") router.refresh();
      else stale = true;
    }, first.current);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [router, session]);
  return null;
}
