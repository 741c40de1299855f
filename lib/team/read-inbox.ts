import { z } from "zod";
import { cursorInt, keysetPage } from "../session/log/cursor";
import type { Db } from "../db/client";
import { getTeam } from "./get-team";
import { type InboxCursor, listInbox, type MailType, type MailView } from "./mailbox";

/** Where a page of an inbox ended: its last message's rank (0: a pending plan request) and seq. */
export const inboxCursor = z.object({ rank: z.union([z.literal(0), z.literal(1)]), seq: cursorInt }).strict();

/** How many messages an inbox page holds unless asked for another number (at most 200). */
export const INBOX_PAGE = 50;

export type InboxQuery = {
  status?: "pending" | "unread" | "read" | "answered";
  type?: MailType;
  to?: string;
  limit?: number;
  after?: InboxCursor;
};

/**
 * A member's inbox (the lead's by default): pending plan requests first, then everything else in order, a page at
 * a time (`next`: the following page's `after`, null on the last).
 */
export async function readInbox(
  db: Db,
  teamId: string,
  query: InboxQuery,
): Promise<{ messages: MailView[]; next: string | null }> {
  const team = await getTeam(db, teamId);
  const limit = query.limit ?? INBOX_PAGE;
  const rows = await listInbox(
    db,
    {
      teamId,
      toSession: query.to ?? team.leadSessionId,
      ...(query.type ? { type: query.type } : {}),
      ...(query.status ? { status: query.status } : {}),
    },
    query.after,
    limit,
  );
  const { page, next } = keysetPage(rows, limit, (last) => ({ rank: last.rank, seq: last.mail.seq }));
  return { messages: page.map((r) => r.mail), next };
}
