import "server-only";
import { type Conn, kysely } from "../client";

/** Home of TeamLead: the people an owner added to answer a team's mailbox, besides the lead session's starter. */
export type TeamLeadView = { userId: string; name: string; email: string; addedBy: string | null; createdAt: Date };

export async function listTeamLeads(conn: Conn, teamId: string): Promise<TeamLeadView[]> {
  return kysely(conn)
    .selectFrom("TeamLead as l")
    .innerJoin("User as u", "u.id", "l.userId")
    .select(["l.userId", "u.name", "u.email", "l.addedBy", "l.createdAt"])
    .where("l.teamId", "=", teamId)
    .orderBy("l.createdAt")
    .execute();
}

/** Adds a lead person; false when they were one already. */
export async function addTeamLead(
  conn: Conn,
  teamId: string,
  userId: string,
  addedBy: string | null,
): Promise<boolean> {
  const r = await kysely(conn)
    .insertInto("TeamLead")
    .values({ teamId, userId, addedBy, createdAt: new Date() })
    .onConflict((oc) => oc.columns(["teamId", "userId"]).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function removeTeamLead(conn: Conn, teamId: string, userId: string): Promise<boolean> {
  const r = await kysely(conn)
    .deleteFrom("TeamLead")
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
