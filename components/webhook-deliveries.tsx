import Link from "next/link";
import type { AttemptView, DeliveryView } from "@/lib/webhooks/views/webhook-view";

const BADGE: Record<string, string> = {
  delivered: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  pending: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-100",
  failed: "bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100",
  refused: "bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
};

// Server-rendered: the same text in every time zone, as stored (UTC).
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`;

function outcome(a: AttemptView): string {
  return a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "no answer");
}

function Attempts({ attempts }: { attempts: AttemptView[] }) {
  if (attempts.length === 0) return <p className="text-xs text-zinc-600 dark:text-zinc-400">No attempt yet.</p>;
  return (
    <table className="text-xs">
      <thead>
        <tr className="text-left text-zinc-600 dark:text-zinc-400">
          <th className="pr-3 font-normal">#</th>
          <th className="pr-3 font-normal">Time</th>
          <th className="pr-3 font-normal">Result</th>
          <th className="font-normal">Duration</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <tr key={a.number} data-testid="webhook-attempt" data-status-code={a.statusCode ?? ""}>
            <td className="pr-3">{a.number}</td>
            <td className="pr-3">
              <time dateTime={a.startedAt}>{when(a.startedAt)}</time>
            </td>
            <td className="pr-3 break-all">{outcome(a)}</td>
            <td>{a.durationMs} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The delivery log: each webhook call owed, its attempts (time, status code or error, duration) and its outcome. */
export function WebhookDeliveries({ deliveries }: { deliveries: DeliveryView[] }) {
  if (deliveries.length === 0) {
    return (
      <p data-testid="no-webhook-deliveries" className="text-sm text-zinc-600 dark:text-zinc-400">
        No webhook deliveries.
      </p>
    );
  }
  return (
    <ul data-testid="webhook-deliveries" className="flex flex-col gap-3">
      {deliveries.map((d) => (
        <li
          key={d.id}
          data-testid="webhook-delivery"
          data-status={d.status}
          data-event={d.event}
          className="flex flex-col gap-1 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
        >
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span
              data-testid="webhook-outcome"
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${BADGE[d.status] ?? ""}`}
            >
              {d.status}
            </span>
            <span className="font-medium">{d.event}</span>
            <span className="break-all text-zinc-600 dark:text-zinc-400" data-testid="webhook-url">
              {d.url}
            </span>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              ({d.source === "server" ? "server hook" : "workspace hook"})
            </span>
          </div>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Delivery <code>{d.id}</code> · <time dateTime={d.createdAt}>{when(d.createdAt)}</time> · session{" "}
            <Link href={`/sessions/${d.sessionId}`} className="underline">
              {d.sessionId}
            </Link>
            {d.finishedAt ? (
              <>
                {" "}
                · ended <time dateTime={d.finishedAt}>{when(d.finishedAt)}</time>
              </>
            ) : null}
            {d.nextAttemptAt ? (
              <>
                {" "}
                · next attempt <time dateTime={d.nextAttemptAt}>{when(d.nextAttemptAt)}</time>
              </>
            ) : null}
          </p>
          {d.error && d.status !== "delivered" ? (
            <p data-testid="webhook-error" className="text-xs text-rose-800 dark:text-rose-300">
              {d.status === "refused" ? "Refused, never called: " : ""}
              {d.error}
            </p>
          ) : null}
          <Attempts attempts={d.attempts} />
          <details className="text-xs">
            <summary className="cursor-pointer">Body</summary>
            <pre className="overflow-x-auto whitespace-pre-wrap break-all">{JSON.stringify(d.body, null, 2)}</pre>
          </details>
        </li>
      ))}
    </ul>
  );
}
