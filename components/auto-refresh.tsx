"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders a list page every few seconds while it is visible (statuses change in other tabs and processes). */
export function AutoRefresh({ everyMs = 4000 }: { everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [router, everyMs]);
  return null;
}
