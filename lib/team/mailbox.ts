import { sql, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { newId } from "../id";

export const MAIL_TYPES = ["plan_approval_request", "plan_approval_response", "message"] as const;
export type MailType = (typeof MAIL_TYPES)[number];
export type MailStatus = "unread" | "read" | "answered";

export type MailView = {
  id: string;
  teamId: string;
  seq: number;
  from: string;
  to: string;
  type: MailType;
  requestId: string | null;
  payload: Record<string, unknown>;
  status: MailStatus;
  createdAt: string;
  readAt: string | null;
};

type Row = {
  id: string;
  teamId: string;
  seq: number;
  fromSession: string;
  toSession: string;
  type: string;
  requestId: string | null;
  payload: string;
  status: string;
  createdAt: string | Date;
  readAt: string | Date | null;
};

const view = (r: Row): MailView => ({
  id: r.id,
  teamId: r.teamId,
  seq: Number(r.seq),
  from: r.fromSession,
  to: r.toSession,
  type: r.type as MailType,
  requestId: r.requestId,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  status: r.status as MailStatus,
  createdAt: new Date(r.createdAt).toISOString(),
  readAt: r.readAt ? new Date(r.readAt).toISOString() : null,
});

const FILTERS = {
  id: '"id" = ?',
  teamId: '"teamId" = ?',
  to: '"toSession" = ?',
  status: '"status" = ?',
  requestId: '"requestId" = ?',
  type: '"type" = ?',
} as const;

/** Mailbox messages in team order (seq). */
export async function listMail(
  db: Db | SqlRunner,
  where: Partial<Record<keyof typeof FILTERS, string>>,
): Promise<MailView[]> {
  const run = "query" in db ? db : await sql(db);
  const keys = (Object.keys(FILTERS) as (keyof typeof FILTERS)[]).filter((k) => where[k] !== undefined);
  const rows = await run.query<Row>(
    `SELECT "id", "teamId", "seq", "fromSession", "toSession", "type", "requestId", "payload", "status", "createdAt", "readAt" FROM "MailboxMessage"${keys.length ? ` WHERE ${keys.map((k) => FILTERS[k]).join(" AND ")}` : ""} ORDER BY "seq"`,
    keys.map((k) => where[k] as string),
  );
  return rows.map(view);
}

export type NewMail = {
  teamId: string;
  from: string;
  to: string;
  type: MailType;
  requestId?: string | null;
  payload: Record<string, unknown>;
  status?: MailStatus;
};

/**
 * Stores a message inside the caller's transaction. The team's next seq is read in the same transaction;
 * (teamId, seq) is unique, so two writers can never share a place in the order.
 */
export async function insertMail(run: SqlRunner, mail: NewMail): Promise<string> {
  const id = newId("msg");
  const [row] = await run.query<{ next: number }>(
    'SELECT COALESCE(MAX("seq"), 0) + 1 AS "next" FROM "MailboxMessage" WHERE "teamId" = ?',
    [mail.teamId],
  );
  const at = new Date();
  await run.execute(
    'INSERT INTO "MailboxMessage" ("id", "teamId", "seq", "fromSession", "toSession", "type", "requestId", "payload", "status", "createdAt", "readAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      id,
      mail.teamId,
      Number(row?.next ?? 1),
      mail.from,
      mail.to,
      mail.type,
      mail.requestId ?? null,
      JSON.stringify(mail.payload),
      mail.status ?? "unread",
      at,
      mail.status && mail.status !== "unread" ? at : null,
    ],
  );
  return id;
}
