"use client";

import { useRouter } from "next/navigation";
import { useOneShot } from "./use-one-shot";

/** One click: the failed verification goes back to the agent as its next message. */
export function SendBackButton({ sessionId, text }: { sessionId: string; text: string }) {
  const router = useRouter();
  const { send, busy, error } = useOneShot(() => router.refresh());
  return (
    <span className="flex items-center gap-2 text-xs">
      <button
        type="button"
        data-testid="send-back"
        disabled={busy}
        onClick={() => void send(`/api/sessions/${sessionId}/messages`, { text })}
        className="rounded border border-rose-700 px-2 py-1 text-rose-800 disabled:opacity-50 dark:text-rose-300"
      >
        Send back to the agent
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </span>
  );
}
