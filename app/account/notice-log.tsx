import type { NoticeLogEntry } from "@/lib/notify/manage-choices";

const STATUS: Record<string, string> = {
  sent: "sent",
  pending: "going out",
  failed: "failed",
  withdrawn: "not sent: decided first",
};

/** A person's latest notices, newest first: what was sent to them, when, and what failed. */
export function NoticeLog({ entries }: { entries: readonly NoticeLogEntry[] }) {
  if (entries.length === 0)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-notices">
        Nothing sent to you yet.
      </p>
    );
  return (
    <table className="text-left text-sm" data-testid="notice-log">
      <thead>
        <tr>
          <th className="pr-3 font-medium">When</th>
          <th className="pr-3 font-medium">Message</th>
          <th className="font-medium">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid="notice-row">
            <td className="pr-3 align-top whitespace-nowrap">{new Date(e.createdAt).toLocaleString()}</td>
            <td className="pr-3 align-top">{e.subject}</td>
            <td className="align-top">
              {e.channel} · {STATUS[e.status] ?? e.status}
              {e.error && e.status !== "sent" ? (
                <span className="block text-zinc-600 dark:text-zinc-400">{e.error}</span>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
