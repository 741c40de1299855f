import type { Db } from "../db/client";
import { getTeam } from "./get-team";
import { listMail, type MailType, type MailView } from "./mailbox";

/** A member's inbox (the lead's by default): pending plan requests first, then everything else in order. */
export async function readInbox(
  db: Db,
  teamId: string,
  query: { status?: "pending" | "unread" | "read" | "answered"; type?: MailType; to?: string },
): Promise<MailView[]> {
  const team = await getTeam(db, teamId);
  const to = query.to ?? team.leadSessionId;
  const pending = (m: MailView) => m.type === "plan_approval_request" && m.status !== "answered";
  let mail = await listMail(db, { teamId, to, ...(query.type ? { type: query.type } : {}) });
  if (query.status === "pending") mail = mail.filter(pending);
  else if (query.status) mail = mail.filter((m) => m.status === query.status);
  return [...mail.filter(pending), ...mail.filter((m) => !pending(m))];
}
