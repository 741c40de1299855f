"use client";

import { useEffect } from "react";

/**
 * Registers Plangate's service worker (public/sw.js), which shows pushed notices and opens their item on a tap: what
 * makes the pages an installable app (issue 46). It caches nothing and sees no request.
 */
export function ServiceWorker() {
  useEffect(() => {
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => undefined);
  }, []);
  return null;
}
