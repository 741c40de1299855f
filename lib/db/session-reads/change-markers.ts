import "server-only";
import { sql } from "kysely";
import { type Conn, kysely } from "../client";

/**
 * SQLite's change marker: it moves only when another connection commits, and touches no table, so an idle
 * follower's check is one tiny statement.
 */
export async function readDataVersion(conn: Conn): Promise<number> {
  const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(kysely(conn));
  return Number(rows[0]?.data_version);
}

/** PostgreSQL: tells every instance listening on `channel` (this one too), at once or at the caller's commit. */
export async function notifyChannel(conn: Conn, channel: string, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, ${payload})`.execute(kysely(conn));
}

/** The committed lastSeq of each of these sessions (those that exist). */
export async function listLastSeqs(
  conn: Conn,
  sessionIds: readonly string[],
): Promise<{ id: string; lastSeq: number }[]> {
  if (sessionIds.length === 0) return [];
  return kysely(conn).selectFrom("Session").select(["id", "lastSeq"]).where("id", "in", sessionIds).execute();
}

/** The sessions whose log moved at or after `since` (newest first, at most `limit`): who another process wrote to. */
export async function listSessionsActiveSince(conn: Conn, since: Date, limit = 1000): Promise<string[]> {
  const rows = await kysely(conn)
    .selectFrom("Session")
    .select("id")
    .where("lastActivityAt", ">=", since)
    .orderBy("lastActivityAt", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
