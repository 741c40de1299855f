import "server-only";
import { sql } from "kysely";
import { type Conn, kysely } from "./client";

/** Whether the database answers a trivial statement (liveness, not schema or data). */
export async function checkDatabase(conn: Conn): Promise<boolean> {
  try {
    await sql`SELECT 1`.execute(kysely(conn));
    return true;
  } catch {
    return false;
  }
}
