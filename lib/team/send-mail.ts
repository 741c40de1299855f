import type { Db } from "../db/client";
import { AppError } from "../errors";
import { wakeSession } from "./wake-session";
import { getTeam } from "./get-team";
import { insertMail, type MailType } from "./mailbox";

export type OutgoingMail = {
  teamId: string;
  from: string;
  to: string;
  type: MailType;
  requestId?: string | null;
  payload: Record<string, unknown>;
};

/**
 * A team message: stored in order, delivered at the recipient's next step. An idle recipient gets a turn
 * so that it reads the message now (a suspended one reads it when it resumes).
 */
export async function sendMail(
  db: Db,
  mail: OutgoingMail,
  drive: (id: string) => Promise<void>,
): Promise<{ id: string }> {
  const id = await insertMail(db, mail);
  await wakeSession(db, mail.to, drive);
  return { id };
}

/** The session id of the team member called `nameOrId` ("lead" is the lead). */
export async function findMember(db: Db, teamId: string, nameOrId: string): Promise<string> {
  const team = await getTeam(db, teamId);
  const members = [...(team.lead ? [team.lead] : []), ...team.teammates];
  const member = members.find((m) => m.name === nameOrId || m.sessionId === nameOrId);
  if (!member) throw new AppError("not_found", `to: no member of this team is called ${nameOrId}.`);
  return member.sessionId;
}
