"use client";

import { useEffect, useState } from "react";
import type { PendingRetry } from "@/lib/session/log/fold";
import { retryText } from "@/lib/session/retry-text";

/**
 * The open turn's model request failed and waits for its next attempt: why, and a countdown to it (ticking every
 * second while shown; "retrying now" once the time has come). The page re-renders on the attempt's outcome.
 */
export function RetryBanner({ retry }: { retry: PendingRetry }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <p
      data-testid="retry-banner"
      data-attempt={retry.attempt}
      data-of={retry.of}
      suppressHydrationWarning
      className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm break-words text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      {retryText(retry, now)}
    </p>
  );
}
