"use client";

import { useEffect, useState } from "react";

/**
 * Asked on the first review, off until the person says yes: a browser notification when a review, an ask or a
 * teammate's plan arrives while this tab is hidden.
 */
export function NotifyOptIn() {
  const [state, setState] = useState<NotificationPermission | "unsupported" | null>(null);
  useEffect(() => {
    setState(typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  }, []);
  if (state !== "default") return null;
  return (
    <p data-testid="notify-opt-in" className="mb-2 flex flex-wrap items-center gap-2 text-xs">
      Get a browser notification when a decision waits and this tab is in the background?
      <button
        type="button"
        data-testid="notify-enable"
        onClick={() => void Notification.requestPermission().then(setState)}
        className="min-h-11 rounded border px-2"
      >
        Turn on notifications
      </button>
    </p>
  );
}
