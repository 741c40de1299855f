"use client";

import { useEffect, useState } from "react";

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** Time since `since` (ISO), ticking every second while shown: a running turn or call never looks frozen. */
export function Elapsed({ since, testId = "elapsed" }: { since: string; testId?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span data-testid={testId} suppressHydrationWarning>
      {formatMs(Math.max(0, now - Date.parse(since)))}
    </span>
  );
}
