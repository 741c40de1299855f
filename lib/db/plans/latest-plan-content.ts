import "server-only";
import { type Conn, kysely } from "../client";

/** The newest version's text of a plan, or null when it has none. */
export async function latestPlanContent(conn: Conn, planId: string): Promise<string | null> {
  const row = await kysely(conn)
    .selectFrom("PlanVersion")
    .select("content")
    .where("planId", "=", planId)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.content ?? null;
}
