"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { sendJson } from "./post-json";

/** Export links, and a delete that asks once more before it happens. */
export function SessionActions({ sessionId, title }: { sessionId: string; title: string }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The reader's zone is known only in the browser: the Markdown export then shows its times in it.
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const remove = async () => {
    const r = await sendJson("DELETE", `/api/sessions/${sessionId}`, { confirm: sessionId });
    if (r.ok) {
      router.push("/");
      router.refresh();
      return;
    }
    setError(r.message);
    setConfirming(false);
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <a
        href={`/api/sessions/${sessionId}/export?format=md${zone ? `&tz=${encodeURIComponent(zone)}` : ""}`}
        data-testid="export-md"
        className="inline-flex min-h-6 items-center rounded border px-2"
      >
        Export Markdown
      </a>
      <a
        href={`/api/sessions/${sessionId}/export?format=json`}
        data-testid="export-json"
        className="inline-flex min-h-6 items-center rounded border px-2"
      >
        Export JSON
      </a>
      {confirming ? (
        <span role="group" aria-label="Confirm delete" className="flex items-center gap-2">
          Delete “{title}” with its log, plans and reviews?
          <button
            type="button"
            data-testid="confirm-delete"
            onClick={() => void remove()}
            className="inline-flex min-h-6 items-center rounded border border-rose-700 px-2 text-rose-800 dark:text-rose-300"
          >
            Yes, delete
          </button>
          <button
            type="button"
            onClick={() => setConfirming(false)}
            className="inline-flex min-h-6 items-center rounded border px-2"
          >
            Keep it
          </button>
        </span>
      ) : (
        <button
          type="button"
          data-testid="delete-session"
          onClick={() => setConfirming(true)}
          className="inline-flex min-h-6 items-center rounded border px-2"
        >
          Delete
        </button>
      )}
      {error ? (
        <span role="alert" className="text-rose-700 dark:text-rose-300">
          {error}
        </span>
      ) : null}
    </div>
  );
}
