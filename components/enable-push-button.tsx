"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson } from "./post-json";

/** Turns on Web Push for this device: the service worker, the browser's subscription, then the server keeps it. */
export function EnablePushButton({ vapidPublicKey }: { vapidPublicKey: string }) {
  const router = useRouter();
  const [said, setSaid] = useState<string | null>(null);
  async function enable() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window))
      return setSaid("This browser cannot take push notifications.");
    try {
      if ((await Notification.requestPermission()) !== "granted")
        return setSaid("Notifications are blocked for this site: allow them in the browser's settings.");
      const registration = await navigator.serviceWorker.register("/sw.js");
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: vapidPublicKey,
      });
      const result = await postJson("/api/me/push", subscription.toJSON());
      if (!result.ok) return setSaid(result.message);
      setSaid("Push is on for this device.");
      router.refresh();
    } catch (error) {
      setSaid(`The browser could not subscribe: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return (
    <div className="flex flex-col gap-1 text-sm">
      <button
        type="button"
        onClick={enable}
        className="self-start rounded border border-zinc-400 px-3 py-1 dark:border-zinc-600"
        data-testid="enable-push"
      >
        Notify this device
      </button>
      {said ? (
        <p role="status" data-testid="enable-push-said">
          {said}
        </p>
      ) : null}
    </div>
  );
}
