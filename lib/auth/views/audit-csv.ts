/**
 * The audit log as CSV (RFC 4180): one row per act, newest first, as the Audit page lists them. Names, emails
 * and subjects come from people and agents: a cell that a spreadsheet would run as a formula (=, +, -, @, tab,
 * carriage return first) is written with a leading apostrophe, so opening the export runs nothing.
 */
export type AuditRow = {
  at: Date;
  name: string;
  credential: string;
  kind: string;
  sessionId: string | null;
  workspace: string | null;
  subject: string | null;
  address: string | null;
  detail: Record<string, unknown>;
};

const COLUMNS = ["at", "who", "credential", "kind", "session", "workspace", "subject", "address", "detail"] as const;

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function auditCsv(rows: readonly AuditRow[]): string {
  const lines = [COLUMNS.join(",")];
  for (const r of rows)
    lines.push(
      [
        r.at.toISOString(),
        r.name,
        r.credential,
        r.kind,
        r.sessionId ?? "",
        r.workspace ?? "",
        r.subject ?? "",
        r.address ?? "",
        Object.keys(r.detail).length ? JSON.stringify(r.detail) : "",
      ]
        .map(cell)
        .join(","),
    );
  return `${lines.join("\r\n")}\r\n`;
}
