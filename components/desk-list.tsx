"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { waitedFor } from "@/lib/desk/views/desk-view";
import { KEYS } from "@/lib/ui/views/shortcuts";

/** The time, once a minute after the first minute (null before: the server's words stand, as rendered). */
function useMinuteClock(): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export type DeskRow = {
  id: string;
  href: string;
  kind: "plan" | "question" | "permission";
  title: string;
  agent: string;
  project: string;
  needs: string;
  waited: string;
  /** When it started waiting: the wait's words are kept current in the browser, with no request. */
  since: string;
  mine: boolean;
  open: boolean;
};

const KIND_WORDS = { plan: "Plan", question: "Question", permission: "Permission" } as const;

/**
 * What waits, oldest first. `j`/`k` move between items and Enter opens one: only while the focus is in this
 * list, so a key pressed anywhere else (the page, a box being typed in) does nothing here.
 */
export function DeskList({ rows }: { rows: DeskRow[] }) {
  const list = useRef<HTMLOListElement>(null);
  const now = useMinuteClock();
  function move(e: KeyboardEvent<HTMLOListElement>) {
    if (e.key !== KEYS.deskNext && e.key !== KEYS.deskPrevious) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>("a[data-desk-link]") ?? [])];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = links[Math.min(Math.max(at + (e.key === KEYS.deskNext ? 1 : -1), 0), links.length - 1)];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  }
  return (
    <ol ref={list} onKeyDown={move} className="flex flex-col gap-1" data-testid="desk-list" aria-label="Waiting">
      {rows.map((r) => (
        <li key={r.id}>
          <Link
            href={r.href}
            // Each desk link is the whole desk again: prefetching every visible one read the listing once per row.
            prefetch={false}
            data-desk-link
            data-testid="desk-item"
            data-kind={r.kind}
            data-item={r.id}
            data-mine={r.mine ? "yes" : "no"}
            aria-current={r.open ? "true" : undefined}
            className={`flex min-h-11 flex-col rounded border px-3 py-2 text-sm focus:outline-2 focus:outline-blue-600 ${
              r.open
                ? "border-blue-600 bg-blue-50 dark:bg-blue-950"
                : "border-zinc-200 hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-900"
            }`}
          >
            <span className="font-medium break-words">
              {KIND_WORDS[r.kind]}: {r.title}
            </span>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              {r.agent} · {r.project} · waiting {now === null ? r.waited : waitedFor(r.since, now)}
            </span>
            <span className="text-xs" data-testid="desk-needs">
              {r.needs}
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
