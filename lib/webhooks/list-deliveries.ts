import { sql, type Db } from "../db/client";
import type { SqlArg } from "../db/sql";
import { AppError } from "../errors";

export type AttemptView = {
  number: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
};

export type DeliveryView = {
  id: string;
  sessionId: string;
  seq: number;
  event: string;
  /** The URL without credentials or query string (a hook's URL often carries its own token). */
  url: string;
  source: string;
  status: string;
  attempts: AttemptView[];
  nextAttemptAt: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  body: unknown;
};

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "refused"] as const;

type Row = {
  id: string;
  sessionId: string;
  seq: number;
  event: string;
  url: string;
  source: string;
  status: string;
  body: string;
  nextAttemptAt: Date | string | null;
  error: string | null;
  createdAt: Date | string;
  finishedAt: Date | string | null;
};
type AttemptRow = {
  deliveryId: string;
  number: number;
  startedAt: Date | string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function displayUrl(url: string): string {
  if (!URL.canParse(url)) return url.slice(0, 200);
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}${u.search ? "?…" : ""}`;
}

/** Deliveries newest first (ids are time-ordered), each with its attempts in order. */
export async function listDeliveries(
  db: Db,
  where: { sessionId?: string; status?: string; limit?: number } = {},
): Promise<DeliveryView[]> {
  const run = await sql(db);
  if (where.sessionId !== undefined) {
    const [found] = await run.query('SELECT 1 AS "x" FROM "Session" WHERE "id" = ?', [where.sessionId]);
    if (!found) throw new AppError("session_not_found");
  }
  const clauses: string[] = [];
  const args: SqlArg[] = [];
  if (where.sessionId !== undefined) {
    clauses.push('"sessionId" = ?');
    args.push(where.sessionId);
  }
  if (where.status !== undefined) {
    clauses.push('"status" = ?');
    args.push(where.status);
  }
  const rows = await run.query<Row>(
    'SELECT "id", "sessionId", "seq", "event", "url", "source", "status", "body", "nextAttemptAt", "error", "createdAt", "finishedAt" FROM "WebhookDelivery"' +
      `${clauses.length ? ` WHERE ${clauses.join(" AND ")}` : ""} ORDER BY "id" DESC LIMIT ?`,
    [...args, where.limit ?? 50],
  );
  const attempts = new Map<string, AttemptView[]>();
  if (rows.length > 0) {
    const list = await run.query<AttemptRow>(
      `SELECT "deliveryId", "number", "startedAt", "durationMs", "statusCode", "error" FROM "WebhookAttempt" WHERE "deliveryId" IN (${rows.map(() => "?").join(", ")}) ORDER BY "deliveryId", "number"`,
      rows.map((r) => r.id),
    );
    for (const a of list) {
      const view = {
        number: Number(a.number),
        startedAt: new Date(a.startedAt).toISOString(),
        durationMs: Number(a.durationMs),
        statusCode: a.statusCode === null ? null : Number(a.statusCode),
        error: a.error,
      };
      attempts.set(a.deliveryId, [...(attempts.get(a.deliveryId) ?? []), view]);
    }
  }
  return rows.map((r) => ({
    id: r.id,
    sessionId: r.sessionId,
    seq: Number(r.seq),
    event: r.event,
    url: displayUrl(r.url),
    source: r.source,
    status: r.status,
    attempts: attempts.get(r.id) ?? [],
    nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
    error: r.error,
    createdAt: new Date(r.createdAt).toISOString(),
    finishedAt: iso(r.finishedAt),
    body: JSON.parse(r.body),
  }));
}
