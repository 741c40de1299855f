import type { Conn } from "../db/client";
import {
  type InboxCursor,
  type InboxFilter,
  insertMailboxMessage,
  listInboxPage,
  listMailboxMessages,
  listTeamMailBefore,
  type MailRow,
} from "../db/teams/mailbox-rows";
import { newId } from "../id";
import type { MailStatus, MailType, MailView } from "./views/team-view";

export { MAIL_TYPES, type MailStatus, type MailType, type MailView } from "./views/team-view";

const view = (r: MailRow): MailView => ({
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

export type MailQuery = {
  id?: string;
  teamId?: string;
  to?: string;
  status?: string;
  requestId?: string;
  type?: string;
};

/** Mailbox messages in team order (seq). */
export async function listMail(conn: Conn, where: MailQuery): Promise<MailView[]> {
  const { to, ...rest } = where;
  const rows = await listMailboxMessages(conn, { ...rest, ...(to !== undefined ? { toSession: to } : {}) });
  return rows.map(view);
}

/** A team's messages shown at a time on its page. */
export const TEAM_MAIL_PAGE = 50;

/**
 * The latest `limit` messages of a team before seq `before`, in team order; `earlier` is the `before` that shows
 * the ones before them (null: none).
 */
export async function listTeamMail(
  conn: Conn,
  teamId: string,
  before?: number,
  limit = TEAM_MAIL_PAGE,
): Promise<{ messages: MailView[]; earlier: number | null }> {
  const rows = await listTeamMailBefore(conn, teamId, before, limit);
  const shown = rows.slice(0, limit).reverse();
  return { messages: shown.map(view), earlier: rows.length > limit ? (shown[0]?.seq ?? null) : null };
}

export type { InboxCursor } from "../db/teams/mailbox-rows";

/** A page of an inbox, pending plan requests first (see listInboxPage): `limit + 1` at most, each with its rank. */
export async function listInbox(
  conn: Conn,
  where: InboxFilter,
  after: InboxCursor | undefined,
  limit: number,
): Promise<{ mail: MailView; rank: 0 | 1 }[]> {
  return (await listInboxPage(conn, where, after, limit)).map((r) => ({ mail: view(r), rank: r.rank }));
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
 * Stores a message, inside the caller's transaction when given one, so that it
 * commits with what it tells about.
 */
export async function insertMail(conn: Conn, mail: NewMail): Promise<string> {
  const id = newId("msg");
  const at = new Date();
  await insertMailboxMessage(conn, {
    id,
    teamId: mail.teamId,
    fromSession: mail.from,
    toSession: mail.to,
    type: mail.type,
    requestId: mail.requestId ?? null,
    payload: JSON.stringify(mail.payload),
    status: mail.status ?? "unread",
    createdAt: at,
    readAt: mail.status && mail.status !== "unread" ? at : null,
  });
  return id;
}
