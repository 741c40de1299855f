import "server-only";
import { type Conn, kysely } from "../client";

/** The subagent a task call started (one per call: a rerun of the call finds it instead of starting another). */
export async function findSubagent(conn: Conn, parentId: string, parentCallId: string): Promise<string | undefined> {
  const row = await kysely(conn)
    .selectFrom("Session")
    .select("id")
    .where("parentId", "=", parentId)
    .where("parentCallId", "=", parentCallId)
    .executeTakeFirst();
  return row?.id;
}
