import type { Db } from "../db/client";
import { markMailRead } from "../db/teams/mailbox-rows";
import { appendEvents } from "../session/append-events";
import { listMail } from "./mailbox";
import { formatMail } from "./format-mail";
import { getTeam } from "./get-team";

/**
 * Step boundary for a team member: unread messages become one user message in its log, and are marked
 * read in the same transaction (so a crash can neither lose nor repeat them). True when something arrived.
 */
export async function deliverMail(db: Db, sessionId: string, teamId: string, turnId: string): Promise<boolean> {
  const unread = await listMail(db, { to: sessionId, status: "unread" });
  if (unread.length === 0) return false;
  const ids = unread.map((m) => m.id);
  const team = await getTeam(db, teamId);
  const names = Object.fromEntries(
    [...(team.lead ? [team.lead] : []), ...team.teammates].map((m) => [m.sessionId, m.name]),
  );
  await appendEvents(
    db,
    sessionId,
    [{ type: "message.user", payload: { text: formatMail(unread, names), source: "team" } }],
    {
      guard: (s) => s.openTurnId === turnId,
      also: (run) => markMailRead(run, ids, new Date()),
    },
  );
  return true;
}
