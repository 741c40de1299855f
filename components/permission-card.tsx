"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DiffView } from "./diff-view";
import { useOneShot } from "./use-one-shot";

export type PermissionAskView = { id: string; tool: string; permission: string; patterns: string[]; always: string[]; metadata: Record<string, unknown> };

const SCOPES = { session: "this session", workspace: "every session in this workspace" } as const;

/** A pending ask: what the tool wants to do, and Allow once / Allow always (scope + saved pattern) / Reject. */
export function PermissionCard({ ask }: { ask: PermissionAskView }) {
  const router = useRouter();
  const { send, busy, error } = useOneShot(() => router.refresh());
  const [scope, setScope] = useState<keyof typeof SCOPES>("session");
  const [message, setMessage] = useState("");
  const url = `/api/permissions/${ask.id}/reply`;
  const diff = typeof ask.metadata.diff === "string" ? ask.metadata.diff : null;
  const command = typeof ask.metadata.command === "string" ? ask.metadata.command : null;
  const headingId = `permission-${ask.id}`;
  return (
    <section data-testid="permission-card" data-request-id={ask.id} aria-labelledby={headingId} className="rounded-lg border border-sky-300 bg-white p-4 shadow-sm dark:border-sky-800 dark:bg-zinc-900">
      <h2 id={headingId} className="font-semibold">
        Allow <span className="font-mono">{ask.tool}</span>?
      </h2>
      <p className="mt-1 text-sm">
        Permission <span className="font-mono">{ask.permission}</span> for{" "}
        {ask.patterns.map((p) => (
          <code key={p} data-testid="permission-pattern" className="mr-1 rounded bg-zinc-100 px-1 dark:bg-zinc-800">
            {p}
          </code>
        ))}
      </p>
      {command ? (
        <pre data-testid="permission-command" className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
          $ {command}
        </pre>
      ) : null}
      {diff ? (
        <div className="mt-2">
          <DiffView diff={diff} label="Proposed change" testId="permission-diff" />
        </div>
      ) : null}
      <label htmlFor={`${headingId}-message`} className="mt-3 block text-sm">
        Message for the agent if you reject (optional)
      </label>
      <textarea id={`${headingId}-message`} data-testid="permission-message" rows={2} value={message} onChange={(e) => setMessage(e.target.value)} className="mt-1 w-full rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950" />
      {error ? (
        <p role="alert" data-testid="permission-error" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <button type="button" data-testid="allow-once" disabled={busy} onClick={() => void send(url, { reply: "once" })} className="rounded bg-sky-800 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
          Allow once
        </button>
        <button type="button" data-testid="allow-always" disabled={busy} onClick={() => void send(url, { reply: "always", scope })} className="rounded border border-sky-800 px-3 py-1.5 text-sm disabled:opacity-50">
          Allow always
        </button>
        <label htmlFor={`${headingId}-scope`} className="sr-only">
          Allow always for
        </label>
        <select id={`${headingId}-scope`} data-testid="always-scope" value={scope} onChange={(e) => setScope(e.target.value as keyof typeof SCOPES)} className="rounded border px-2 py-1.5 text-sm dark:bg-zinc-950">
          <option value="session">in this session</option>
          <option value="workspace">in this workspace</option>
        </select>
        <button type="button" data-testid="reject" disabled={busy} onClick={() => void send(url, { reply: "reject", ...(message.trim() ? { message: message.trim() } : {}) })} className="rounded border border-rose-700 px-3 py-1.5 text-sm text-rose-800 disabled:opacity-50 dark:text-rose-300">
          Reject
        </button>
      </div>
      <p data-testid="always-saves" className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
        Allow always saves: allow <span className="font-mono">{ask.permission}</span> {ask.always.map((p) => `“${p}”`).join(", ")} for {SCOPES[scope]}.
      </p>
    </section>
  );
}
