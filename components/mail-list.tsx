import type { MailView } from "@/lib/team/views/team-view";
import { MAIL_STATUS_LABEL } from "@/lib/vocabulary";

function describe(m: MailView): string {
  if (m.type === "plan_approval_request")
    return `Plan version ${String(m.payload.version)} for approval${m.status === "answered" ? " (answered)" : ""}`;
  if (m.type === "plan_approval_response")
    return `${m.payload.approve ? "Approved" : "Sent back"}${m.payload.feedback ? `: ${String(m.payload.feedback)}` : ""}`;
  return String(m.payload.text ?? "");
}

/** Mailbox messages in team order, sender by name. */
export function MailList({ messages, names }: { messages: MailView[]; names: Record<string, string> }) {
  if (messages.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">No messages.</p>;
  return (
    <ol data-testid="mail-list" className="flex flex-col gap-2">
      {messages.map((m) => (
        <li
          key={m.id}
          data-testid="mail"
          data-type={m.type}
          data-status={m.status}
          className="rounded border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800"
        >
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {names[m.from] ?? m.from} → {names[m.to] ?? m.to} ·{" "}
            <time dateTime={m.createdAt}>{m.createdAt.replace("T", " ").slice(0, 19)} UTC</time> ·{" "}
            {MAIL_STATUS_LABEL[m.status] ?? m.status}
          </p>
          <p className="mt-1 whitespace-pre-wrap break-words">{describe(m)}</p>
        </li>
      ))}
    </ol>
  );
}
