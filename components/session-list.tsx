import Link from "next/link";
import type { SessionListItem } from "@/lib/session/views/session-view";
import { PLAN_STATUS_LABEL, modeLabel } from "@/lib/vocabulary";
import { StatusBadge } from "./status-badge";

export function SessionList({ sessions }: { sessions: SessionListItem[] }) {
  if (sessions.length === 0) {
    return (
      <div
        data-testid="sessions-empty"
        className="rounded-lg border border-dashed border-zinc-300 p-10 text-center dark:border-zinc-700"
      >
        <p className="font-medium">No sessions yet</p>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Start a session to let an agent explore a workspace in plan mode before it changes anything.
        </p>
      </div>
    );
  }
  return (
    <ul
      data-testid="session-list"
      className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
    >
      {sessions.map((s) => (
        <li
          key={s.id}
          data-testid="session-row"
          data-session-id={s.id}
          className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3"
        >
          <Link
            href={`/sessions/${s.id}`}
            // A session page is a few reads of its own: fetched when opened, not for every visible row.
            prefetch={false}
            className="min-w-0 flex-1 truncate font-medium hover:underline"
          >
            {s.title}
          </Link>
          <StatusBadge status={s.status} />
          <span className="text-xs text-zinc-700 dark:text-zinc-300">
            {s.agent} · {modeLabel(s.mode)}
            {s.role ? ` · team ${s.role}` : ""}
            {s.planStatus ? ` · ${PLAN_STATUS_LABEL[s.planStatus] ?? s.planStatus}` : ""}
          </span>
          {s.role === "lead" && s.teamId ? (
            <Link href={`/team/${s.teamId}`} className="text-xs underline">
              mailbox
            </Link>
          ) : null}
          {s.snippet ? (
            <p data-testid="search-snippet" className="w-full text-xs">
              {s.snippet
                .split(/(\u0002[^\u0003]*\u0003)/)
                .map((part, i) =>
                  part.startsWith("\u0002") ? <mark key={i}>{part.slice(1, -1)}</mark> : <span key={i}>{part}</span>,
                )}
            </p>
          ) : null}
          <span className="w-full truncate text-xs text-zinc-600 dark:text-zinc-400" title={s.workspace}>
            {s.workspace} ·{" "}
            <time dateTime={s.lastActivityAt}>{s.lastActivityAt.replace("T", " ").slice(0, 19)} UTC</time>
          </span>
        </li>
      ))}
    </ul>
  );
}
