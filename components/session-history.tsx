import { CAUSE_LABEL, modeLabel } from "@/lib/vocabulary";
import Link from "next/link";
import type { ReactNode } from "react";
import type { SessionHistory as History } from "@/lib/session/views/history-view";
import { foldUnchanged, type SideRow } from "@/lib/plan/views/side-by-side";
import { UsageLine } from "./usage-line";

const TONE: Record<SideRow["kind"], [string, string]> = {
  same: ["", ""],
  changed: ["diff-del", "diff-add"],
  removed: ["diff-del", ""],
  added: ["", "diff-add"],
};

function SideBySide({ rows, label }: { rows: SideRow[]; label: string }) {
  return (
    <table
      data-testid="side-by-side"
      aria-label={label}
      className="mt-2 w-full table-fixed border-collapse font-mono text-xs"
    >
      <thead>
        <tr>
          <th scope="col" className="w-1/2 text-left font-normal text-zinc-600 dark:text-zinc-400">
            Before
          </th>
          <th scope="col" className="w-1/2 text-left font-normal text-zinc-600 dark:text-zinc-400">
            After
          </th>
        </tr>
      </thead>
      <tbody>
        {foldUnchanged(rows).map((r, i) =>
          r.kind === "skipped" ? (
            <tr key={i} data-kind="skipped">
              <td colSpan={2} className="px-1 text-center text-zinc-600 dark:text-zinc-400">
                ⋯ {r.count} unchanged lines
              </td>
            </tr>
          ) : (
            <tr key={i} data-kind={r.kind}>
              <td
                className={`whitespace-pre-wrap break-words border-r border-zinc-200 px-1 align-top dark:border-zinc-800 ${TONE[r.kind][0]}`}
              >
                {r.left ?? ""}
              </td>
              <td className={`whitespace-pre-wrap break-words px-1 align-top ${TONE[r.kind][1]}`}>{r.right ?? ""}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

function HistoryList({
  title,
  testId,
  rows,
}: {
  title: string;
  testId: string;
  rows: { key: string; body: ReactNode }[];
}) {
  if (rows.length === 0) return null;
  return (
    <section aria-label={title} className="mt-3">
      <h3 className="font-medium">{title}</h3>
      <ul className="mt-1 text-xs">
        {rows.map((r) => (
          <li key={r.key} data-testid={testId}>
            {r.body}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Why things happened: plan versions and who decided them, mode switches and their causes, permission replies, linked sessions, tokens used. */
export function SessionHistory({ history }: { history: History }) {
  const { modes, permissions, related, totals, usage } = history;
  // History reads plan versions newest first (a page); the panel tells them in the order they happened.
  const plans = [...history.plans].reverse();
  return (
    <details
      data-testid="session-history"
      className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <summary className="cursor-pointer font-semibold">
        History: {totals.plans} plan versions, {totals.modes} mode changes, {totals.permissions} permission asks,{" "}
        {related.length} linked sessions
      </summary>
      <UsageLine usage={usage} testId="history-usage" className="mt-2" />
      {totals.modes > modes.length || totals.permissions > permissions.length || totals.plans > plans.length ? (
        <p data-testid="history-latest-only" className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
          Showing the latest {plans.length} plan versions, {modes.length} mode changes and {permissions.length}{" "}
          permission asks; the export and GET /api/sessions/…/history have them all.
        </p>
      ) : null}
      {plans.length > 0 ? (
        <section aria-label="Plan versions" className="mt-3">
          <h3 className="font-medium">Plan versions</h3>
          <ol className="mt-1 flex flex-col gap-2">
            {plans.map((p) => (
              <li
                key={`${p.planId}-${p.version}`}
                data-testid="plan-version-row"
                data-version={p.version}
                className="rounded border border-zinc-200 p-2 dark:border-zinc-800"
              >
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
                {p.comments.length > 0 ? (
                  <ul aria-label={`Comments on version ${p.version}`} className="mt-1 flex flex-col gap-1 text-xs">
                    {p.comments.map((c, i) => (
                      <li key={i} data-testid="history-comment">
                        On “{c.quote}”: {c.body}
                      </li>
                    ))}
                  </ul>
                ) : null}
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
      <HistoryList
        title="Mode history"
        testId="mode-history-row"
        rows={modes.map((m) => ({
          key: String(m.seq),
          body: (
            <>
              {modeLabel(m.from)} → {modeLabel(m.to)}, {CAUSE_LABEL[m.cause] ?? m.cause} at{" "}
              <a href={`#event-${m.seq}`} className="underline">
                {m.at.replace("T", " ").slice(0, 19)}
              </a>
            </>
          ),
        }))}
      />
      <HistoryList
        title="Permission decisions"
        testId="permission-history-row"
        rows={permissions.map((a) => ({
          key: a.id,
          body: `${a.tool} (${a.permission} ${a.patterns.join(", ")}): ${a.status}${a.scope ? ` for the ${a.scope}` : ""}${a.message ? `, “${a.message}”` : ""}`,
        }))}
      />
      <HistoryList
        title="Linked sessions"
        testId="related-session"
        rows={related.map((r) => ({
          key: `${r.relation}-${r.id}`,
          body: (
            <>
              {r.relation}:{" "}
              <Link href={`/sessions/${r.id}`} className="underline">
                {r.title}
              </Link>
            </>
          ),
        }))}
      />
    </details>
  );
}
