"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { onChanges } from "./changes-source";

/**
 * Re-renders a list page when a session it may show changes (the server pushes which, over one stream per tab):
 * nothing is fetched or rendered while nothing happens. A change while the tab is hidden re-renders it once it is
 * shown again. `since`: when the server read what the page shows (a change before its stream opened is told too).
 * `session`: a page about one session re-renders only when that one changed. `deliveries`: a page that shows webhook
 * deliveries re-renders when only those changed too; the others do not.
 */
export function RefreshOnChange({
  since,
  session,
  deliveries = false,
}: {
  since: number;
  session?: string;
  deliveries?: boolean;
}) {
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
      if (changes !== "reconnected") {
        const ids = deliveries ? [...changes.sessions, ...changes.deliveries] : changes.sessions;
        if (session === undefined ? ids.length === 0 : !ids.includes(session)) return;
      }
      if (document.visibilityState === "visible") router.refresh();
      else stale = true;
    }, first.current);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [router, session, deliveries]);
  return null;
}
