"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** Sends a message (or /plan, /plan off, /compact); shows when a message was queued behind a running turn. */
export function Composer({ sessionId }: { sessionId: string }) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const send = async () => {
    if (!text.trim()) return;
    const res = await fetch(`/api/sessions/${sessionId}/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text }) });
    const data = (await res.json().catch(() => null)) as { turn?: { queued: boolean } | null; command?: { name?: string; outcome: string }; error?: { message: string } } | null;
    if (!res.ok) setStatus(data?.error?.message ?? `Not sent (${res.status})`);
    else setStatus(data?.command ? `/${data.command.name ?? "plan"}: ${data.command.outcome}` : data?.turn?.queued ? "Queued for the next step" : null);
    if (res.ok) setText("");
    router.refresh();
  };
  return (
    <form
      data-testid="composer"
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label htmlFor="message" className="sr-only">
        Message
      </label>
      <textarea id="message" data-testid="composer-input" rows={3} value={text} onChange={(e) => setText(e.target.value)} className="w-full rounded border p-2 text-sm" placeholder="Ask, or /plan to plan first" />
      <div className="flex items-center justify-between">
        <span data-testid="composer-status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {status}
        </span>
        <button type="submit" data-testid="send" className="rounded bg-zinc-800 px-3 py-1.5 text-sm text-white">
          Send
        </button>
      </div>
    </form>
  );
}
