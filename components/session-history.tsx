import Link from "next/link";
import type { SessionHistory as History } from "@/lib/session/session-history";
import type { SideRow } from "@/lib/plan/side-by-side";

const TONE: Record<SideRow["kind"], [string, string]> = {
  same: ["", ""],
  changed: ["diff-del", "diff-add"],
  removed: ["diff-del", ""],
  added: ["", "diff-add"],
};

function SideBySide({ rows, label }: { rows: SideRow[]; label: string }) {
  return (
    <table data-testid="side-by-side" aria-label={label} className="mt-2 w-full table-fixed border-collapse font-mono text-xs">
      <thead>
        <tr>
          <th scope="col" className="w-1/2 text-left font-normal text-zinc-600 dark:text-zinc-400">Before</th>
          <th scope="col" className="w-1/2 text-left font-normal text-zinc-600 dark:text-zinc-400">After</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} data-kind={r.kind}>
            <td className={`whitespace-pre-wrap break-words border-r border-zinc-200 px-1 align-top dark:border-zinc-800 ${TONE[r.kind][0]}`}>{r.left ?? ""}</td>
            <td className={`whitespace-pre-wrap break-words px-1 align-top ${TONE[r.kind][1]}`}>{r.right ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Why things happened: plan versions and who decided them, mode switches and their causes, permission replies, linked sessions. */
export function SessionHistory({ history }: { history: History }) {
  const { plans, modes, permissions, related } = history;
  return (
    <details data-testid="session-history" className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <summary className="cursor-pointer font-semibold">
        History: {plans.length} plan versions, {modes.length} mode changes, {permissions.length} permission asks, {related.length} linked sessions
      </summary>
      {plans.length > 0 ? (
        <section aria-label="Plan versions" className="mt-3">
          <h3 className="font-medium">Plan versions</h3>
          <ol className="mt-1 flex flex-col gap-2">
            {plans.map((p) => (
              <li key={`${p.planId}-${p.version}`} data-testid="plan-version-row" data-version={p.version} className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
                <p>
                  Version {p.version}: <strong>{p.decision ?? p.status}</strong>
                  {p.decidedBy ? ` by ${p.decidedBy}` : ""}
                  {p.decidedAt ? ` at ${p.decidedAt.replace("T", " ").slice(0, 19)}` : ""}
                  {p.editedByUser ? " (edited before approval)" : ""}
                  {p.verification ? (
                    <span data-testid="plan-verification" className="ml-2 rounded border px-1 text-xs">
                      {p.verification}
                    </span>
                  ) : null}
                </p>
                {p.feedback ? <p className="text-xs">Feedback: {p.feedback}</p> : null}
                {p.changes ? (
                  <details>
                    <summary className="cursor-pointer text-xs">Changes from version {p.version - 1}</summary>
                    <SideBySide rows={p.changes} label={`Plan version ${p.version - 1} beside version ${p.version}`} />
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {modes.length > 0 ? (
        <section aria-label="Mode history" className="mt-3">
          <h3 className="font-medium">Mode history</h3>
          <ul className="mt-1 text-xs">
            {modes.map((m) => (
              <li key={m.seq} data-testid="mode-history-row">
                <a href={`#event-${m.seq}`} className="underline">#{m.seq}</a> {m.from} → {m.to}, by {m.cause} at {m.at.replace("T", " ").slice(0, 19)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {permissions.length > 0 ? (
        <section aria-label="Permission decisions" className="mt-3">
          <h3 className="font-medium">Permission decisions</h3>
          <ul className="mt-1 text-xs">
            {permissions.map((a) => (
              <li key={a.id} data-testid="permission-history-row">
                {a.tool} ({a.permission} {a.patterns.join(", ")}): {a.status}
                {a.scope ? ` for the ${a.scope}` : ""}
                {a.message ? `, “${a.message}”` : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {related.length > 0 ? (
        <section aria-label="Linked sessions" className="mt-3">
          <h3 className="font-medium">Linked sessions</h3>
          <ul className="mt-1 text-xs">
            {related.map((r) => (
              <li key={`${r.relation}-${r.id}`} data-testid="related-session">
                {r.relation}: <Link href={`/sessions/${r.id}`} className="underline">{r.title}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </details>
  );
}
