import { modeLabel } from "@/lib/vocabulary";
import Link from "next/link";
import type { MemberView, TeammateStatus } from "@/lib/team/views/team-view";

const LABEL: Record<TeammateStatus, { text: string; className: string }> = {
  planning: { text: "Planning", className: "bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-100" },
  awaiting_approval: {
    text: "Awaiting approval",
    className: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  },
  waiting_for_permission: {
    text: "Waiting for permission",
    className: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
  },
  executing: {
    text: "Executing",
    className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  },
  interrupted: { text: "Interrupted", className: "bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100" },
  done: { text: "Done", className: "bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200" },
  unverified: {
    text: "Finished, not checked",
    className: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  },
  verification_failed: {
    text: "Finished, verification failed",
    className: "bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200",
  },
};

/** The lead's view of its teammates: what each is doing, and a link to its session. */
export function TeamMembers({ teammates }: { teammates: MemberView[] }) {
  if (teammates.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">No teammates yet.</p>;
  return (
    <ul
      data-testid="teammates"
      className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
    >
      {teammates.map((m) => (
        <li
          key={m.sessionId}
          data-testid="teammate"
          data-name={m.name}
          data-status={m.teamStatus}
          className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm"
        >
          <Link href={`/sessions/${m.sessionId}`} className="font-medium hover:underline">
            {m.name}
          </Link>
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${LABEL[m.teamStatus].className}`}>
            {LABEL[m.teamStatus].text}
          </span>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{modeLabel(m.mode)}</span>
        </li>
      ))}
    </ul>
  );
}
