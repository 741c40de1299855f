import "server-only";
import type { Insertable } from "kysely";
import { type Conn, kysely } from "./client";
import type { Session } from "./generated-kysely/types";
import { SESSION_VIEW_COLUMNS, type SessionViewRow } from "./session-log/read-state";

/** Home of the Session table's rows (the projection columns are written with each append, in session-log). */
export type NewSessionRow = Omit<Insertable<Session>, "updatedAt">;

export async function insertSession(conn: Conn, row: NewSessionRow): Promise<void> {
  await kysely(conn)
    .insertInto("Session")
    .values({ ...row, updatedAt: row.createdAt ?? new Date() })
    .execute();
}

/** Removes the session; its events, plans, reviews, asks and grants go with it (the rows cascade). */
export async function deleteSessionRow(conn: Conn, sessionId: string): Promise<number> {
  const r = await kysely(conn).deleteFrom("Session").where("id", "=", sessionId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** What a session was created with, which never changes: the agent context is built from it. */
export type SessionSetupRow = {
  id: string;
  workspace: string;
  agent: string;
  model: string;
  parentId: string | null;
  /** The session.created event's payload (JSON), which carries a scripted model's script. */
  created: string | null;
};

export async function findSessionSetup(conn: Conn, sessionId: string): Promise<SessionSetupRow | undefined> {
  return kysely(conn)
    .selectFrom("Session as s")
    .leftJoin("SessionEvent as e", (join) => join.onRef("e.sessionId", "=", "s.id").on("e.seq", "=", 1))
    .select(["s.id", "s.workspace", "s.agent", "s.model", "s.parentId", "e.payload as created"])
    .where("s.id", "=", sessionId)
    .executeTakeFirst();
}

/** The workspace a session works in (what a person's roles are judged against); undefined when there is none. */
export async function findSessionWorkspace(conn: Conn, sessionId: string): Promise<string | undefined> {
  const row = await kysely(conn)
    .selectFrom("Session")
    .select("workspace")
    .where("id", "=", sessionId)
    .executeTakeFirst();
  return row?.workspace;
}

/** A session's workspace, who started it and the agent token it is bound to (an outside agent's), for authorising. */
export async function findSessionOwner(
  conn: Conn,
  sessionId: string,
): Promise<{ workspace: string; agentTokenId: string | null; startedBy: string | null } | undefined> {
  return kysely(conn)
    .selectFrom("Session")
    .select(["workspace", "agentTokenId", "startedBy"])
    .where("id", "=", sessionId)
    .executeTakeFirst();
}

/** The listed view of these sessions (the desk's rows), in no order. */
export async function listSessionRowsById(conn: Conn, ids: readonly string[]): Promise<SessionViewRow[]> {
  if (ids.length === 0) return [];
  return kysely(conn).selectFrom("Session").select(SESSION_VIEW_COLUMNS).where("id", "in", ids).execute();
}
