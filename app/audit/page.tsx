import { pageActor } from "@/lib/http/page-actor";
import { mayAnywhere } from "@/lib/auth/rules/rights";
import { getDb } from "@/lib/db/client";
import { auditQuery, readAudit } from "@/lib/auth/read-audit";

export const dynamic = "force-dynamic";

const FILTERS = ["person", "workspace", "kind"] as const;

/** Every signed act (who, what, which session, when, from where), filterable, exportable as CSV and JSON. */
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await pageActor();
  if (!mayAnywhere(actor, "manage")) return <p data-testid="audit-not-owner">Only an owner reads the audit log.</p>;
  const raw = await searchParams;
  const picked = Object.fromEntries(
    FILTERS.flatMap((k) => (typeof raw[k] === "string" && raw[k] !== "" ? [[k, raw[k]]] : [])),
  );
  const after = typeof raw.after === "string" && raw.after !== "" ? raw.after : undefined;
  const parsed = auditQuery.safeParse(after ? { ...picked, after } : picked);
  const { entries, next } = parsed.success ? await readAudit(getDb(), actor, parsed.data) : { entries: [], next: null };
  const exportUrl = (format: string) => `/api/audit?${new URLSearchParams({ ...picked, format, limit: "1000" })}`;
  const box = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700";
  return (
    <section aria-labelledby="audit-title" className="flex flex-col gap-4">
      <h1 id="audit-title" className="text-xl font-semibold">
        Audit
      </h1>
      <form method="get" className="flex flex-wrap items-end gap-2" data-testid="audit-filters">
        {FILTERS.map((f) => (
          <label key={f} className="flex flex-col gap-1 text-sm">
            {f === "person" ? "Person (email)" : f === "kind" ? "Kind (e.g. review.approved)" : "Workspace"}
            <input name={f} defaultValue={picked[f] ?? ""} className={box} data-testid={`audit-${f}`} />
          </label>
        ))}
        <button type="submit" className="text-sm underline">
          Filter
        </button>
        <a href={exportUrl("csv")} className="text-sm underline" data-testid="audit-csv">
          Export CSV
        </a>
        <a href={exportUrl("json")} className="text-sm underline" data-testid="audit-json">
          Export JSON
        </a>
      </form>
      {parsed.success ? null : <p role="alert">{parsed.error.issues[0]?.message}</p>}
      <table className="text-sm" data-testid="audit-table">
        <thead>
          <tr className="text-left">
            <th className="pr-3">When</th>
            <th className="pr-3">Who</th>
            <th className="pr-3">What</th>
            <th className="pr-3">Session</th>
            <th className="pr-3">Workspace</th>
            <th className="pr-3">Subject</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-testid="audit-entry">
              <td className="pr-3">{e.at.toISOString().replace("T", " ").slice(0, 19)}</td>
              <td className="pr-3">{e.name}</td>
              <td className="pr-3">{e.kind}</td>
              <td className="pr-3">{e.sessionId ? <a href={`/sessions/${e.sessionId}`}>{e.sessionId}</a> : ""}</td>
              <td className="pr-3 break-all">{e.workspace ?? ""}</td>
              <td className="pr-3 break-all">{e.subject ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next ? (
        <a
          href={`/audit?${new URLSearchParams({ ...picked, after: next })}`}
          className="text-sm underline"
          data-testid="audit-older"
        >
          Older acts
        </a>
      ) : null}
    </section>
  );
}
