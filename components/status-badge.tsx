const LABELS: Record<string, { text: string; className: string }> = {
  awaiting_review: {
    text: "Plan awaiting review",
    className: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  },
  awaiting_permission: {
    text: "Waiting for permission",
    className: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
  },
  running: {
    text: "Running",
    className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  },
  interrupted: { text: "Interrupted", className: "bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100" },
  idle: { text: "Idle", className: "bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200" },
};

export function StatusBadge({ status }: { status: string }) {
  const label = LABELS[status] ?? { text: status, className: "bg-zinc-200 text-zinc-800" };
  return (
    <span
      data-testid="status-badge"
      data-status={status}
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${label.className}`}
    >
      {label.text}
    </span>
  );
}
