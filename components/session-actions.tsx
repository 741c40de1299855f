"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { sendJson } from "./post-json";

/** The session's log as a file: Markdown (times in the reader's zone) or JSON. */
export function ExportLinks({ sessionId }: { sessionId: string }) {
  // The reader's zone is known only in the browser: the Markdown export then shows its times in it.
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <a
        href={`/api/sessions/${sessionId}/export?format=md${zone ? `&tz=${encodeURIComponent(zone)}` : ""}`}
        data-testid="export-md"
        className="inline-flex min-h-6 items-center rounded border px-2 py-0.5"
      >
        Export Markdown
      </a>
      <a
        href={`/api/sessions/${sessionId}/export?format=json`}
        data-testid="export-json"
        className="inline-flex min-h-6 items-center rounded border px-2 py-0.5"
      >
        Export JSON
      </a>
    </div>
  );
}

/** Delete, kept away from the exports, and asking once more before it happens. */
export function DeleteSession({ sessionId, title }: { sessionId: string; title: string }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
      {confirming ? (
        <span role="group" aria-label="Confirm delete" className="flex flex-wrap items-center gap-2">
          Delete “{title}” with its log, plans and reviews?
          <button
            type="button"
            data-testid="confirm-delete"
            onClick={() => void remove()}
            className="inline-flex min-h-6 items-center rounded border border-rose-700 px-2 py-0.5 text-rose-800 dark:text-rose-300"
          >
            Yes, delete
          </button>
          <button
            type="button"
            onClick={() => setConfirming(false)}
            className="inline-flex min-h-6 items-center rounded border px-2 py-0.5"
          >
            Keep it
          </button>
        </span>
      ) : (
        <button
          type="button"
          data-testid="delete-session"
          onClick={() => setConfirming(true)}
          className="inline-flex min-h-6 items-center rounded border border-rose-700 px-2 py-0.5 text-rose-800 dark:text-rose-300"
        >
          Delete session…
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
