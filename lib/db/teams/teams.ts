import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely, withTransaction } from "../client";
import type { Session, Team } from "../generated-kysely/types";
import { sessionIdsUnder } from "../within-roots";

/** Home of the Team table and of a session's membership (Session.teamId/role): the one place that writes it. */
export type TeamRow = { id: string; name: string; leadSessionId: string; personApproval: boolean; createdAt: Date };
export type TeamRole = "lead" | "teammate";
/** What a member's view is read from: its projection (state, lastSeq) and who it is. */
export type MemberRow = Pick<Selectable<Session>, "id" | "title" | "role" | "state" | "lastSeq" | "createdAt">;

export async function findTeam(conn: Conn, teamId: string): Promise<TeamRow | undefined> {
  const row = await kysely(conn)
    .selectFrom("Team")
    .select(["id", "name", "leadSessionId", "personApproval", "createdAt"])
    .where("id", "=", teamId)
    .executeTakeFirst();
  // Person approval is off only where it was written off: anything else (a row from an older writer) reads as on.
  return row && { ...row, personApproval: row.personApproval !== false };
}

/** The newest team whose lead works in this workspace (a person may join an outside agent there to it). */
export async function findWorkspaceTeam(
  conn: Conn,
  workspace: string,
): Promise<Pick<Team, "id" | "name" | "leadSessionId"> | undefined> {
  return kysely(conn)
    .selectFrom("Team as t")
    .innerJoin("Session as s", "s.id", "t.leadSessionId")
    .select(["t.id", "t.name", "t.leadSessionId"])
    .where("s.workspace", "=", workspace)
    .orderBy("t.createdAt", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Members in the order they joined the server (createdAt, then id). */
export async function listTeamMembers(conn: Conn, teamId: string): Promise<MemberRow[]> {
  return kysely(conn)
    .selectFrom("Session")
    .select(["id", "title", "role", "state", "lastSeq", "createdAt"])
    .where("teamId", "=", teamId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}

/** The team and its lead's membership, together: a team never exists without its lead in it. */
export async function insertTeamWithLead(conn: Conn, team: TeamRow): Promise<void> {
  await withTransaction(conn, async (trx) => {
    await trx.insertInto("Team").values(team).execute();
    await joinTeam(trx, team.leadSessionId, team.id, "lead", team.createdAt);
  });
}

/** Writes a session's membership (the team.joined event it goes with is the caller's, in the same transaction). */
export async function joinTeam(conn: Conn, sessionId: string, teamId: string, role: TeamRole, at = new Date()) {
  await kysely(conn).updateTable("Session").set({ teamId, role, updatedAt: at }).where("id", "=", sessionId).execute();
}

/** False when no team has that id. */
export async function setTeamPersonApproval(conn: Conn, teamId: string, personApproval: boolean): Promise<boolean> {
  const r = await kysely(conn).updateTable("Team").set({ personApproval }).where("id", "=", teamId).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The newest teams first, for the home page's filter. */
/** `roots`: only teams whose lead session works in one of these roots or under one. */
export async function listRecentTeams(
  conn: Conn,
  limit: number,
  roots?: readonly string[],
): Promise<{ id: string; name: string }[]> {
  let q = kysely(conn).selectFrom("Team").select(["id", "name"]);
  if (roots) q = q.where("leadSessionId", "in", sessionIdsUnder(kysely(conn), roots));
  return q.orderBy("createdAt", "desc").limit(limit).execute();
}
