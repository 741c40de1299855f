"use client";

import { STATUS_LABEL, modeLabel } from "@/lib/vocabulary";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ReplayView } from "@/lib/session/views/replay-view";
import { postJson } from "./post-json";

/** The session as it was right after the selected event, and a fork from that point. */
export function ReplayPanel({
  sessionId,
  state,
  onClose,
}: {
  sessionId: string;
  state: ReplayView;
  onClose: () => void;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const fork = async () => {
    const r = await postJson<{ session: { id: string } }>(`/api/sessions/${sessionId}/fork`, { atSeq: state.seq });
    if (r.ok) router.push(`/sessions/${r.data.session.id}`);
    else setError(r.message);
  };
  const rows: [string, string][] = [
    ["Mode", modeLabel(state.mode) + (state.prePlanMode ? ` (entered from ${modeLabel(state.prePlanMode)})` : "")],
    ["Plan mode", state.plan.active ? "on" : "off"],
    ["Mode change pending", state.queuedMode ? modeLabel(state.queuedMode) : "none"],
    ["Status", STATUS_LABEL[state.status] ?? state.status],
    [
      "Pending review",
      state.pendingReview ? (state.pendingReview.kind === "plan-review" ? "a plan review" : "a question") : "none",
    ],
    ["Pending permission asks", String(state.pendingPermissions.length)],
  ];
  return (
    <aside
      data-testid="replay-panel"
      data-seq={state.seq}
      aria-label={`State after event ${state.seq}`}
      className="sticky top-2 z-10 rounded-lg border border-sky-300 bg-white p-3 text-sm shadow dark:border-sky-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">State after event #{state.seq}</h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close the replay"
          className="rounded px-2 hover:bg-zinc-200 dark:hover:bg-zinc-800"
        >
          ×
        </button>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-zinc-600 dark:text-zinc-400">{k}</dt>
            <dd data-testid={`replay-${k.toLowerCase().replaceAll(" ", "-")}`}>{v}</dd>
          </div>
        ))}
      </dl>
      <button
        type="button"
        data-testid="fork-here"
        onClick={() => void fork()}
        className="mt-3 rounded border px-3 py-1 text-xs"
      >
        Fork from here
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-xs text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
    </aside>
  );
}
