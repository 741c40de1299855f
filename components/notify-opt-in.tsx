"use client";

import { useEffect, useState } from "react";
import { Icon } from "./icons";

/** Remembered in this browser: "No thanks" is said once, not on every page. */
const DISMISSED = "plangate:notify-dismissed";

/**
 * One small offer per page (beside the page's title, not in every card), off until the person says yes: a browser
 * notification when a review, an ask or a teammate's plan arrives while this tab is hidden. "Not now" hides it.
 */
export function NotifyOptIn() {
  const [state, setState] = useState<NotificationPermission | "unsupported" | "dismissed" | null>(null);
  useEffect(() => {
    if (typeof Notification === "undefined") setState("unsupported");
    else setState(localStorage.getItem(DISMISSED) ? "dismissed" : Notification.permission);
  }, []);
  if (state !== "default") return null;
  return (
    <span data-testid="notify-opt-in" className="inline-flex items-center gap-1 text-xs">
      <button
        type="button"
        data-testid="notify-enable"
        title="A browser notification when a decision waits and this tab is in the background"
        onClick={() => void Notification.requestPermission().then(setState)}
        className="inline-flex min-h-6 items-center gap-1 rounded border px-2"
      >
        <Icon name="bell" />
        Notify me
      </button>
      <button
        type="button"
        data-testid="notify-dismiss"
        aria-label="Not now: hide the notification offer"
        onClick={() => {
          localStorage.setItem(DISMISSED, "1");
          setState("dismissed");
        }}
        className="inline-flex min-h-6 min-w-6 items-center justify-center rounded"
      >
        <Icon name="close" />
      </button>
    </span>
  );
}
