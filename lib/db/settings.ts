import "server-only";
import { type Conn, kysely } from "./client";

/** Home of the Setting table: server-wide switches every app instance reads from the database. */
export async function readSetting(conn: Conn, key: string): Promise<string | null> {
  const row = await kysely(conn).selectFrom("Setting").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}

export async function writeSetting(conn: Conn, key: string, value: string, at: Date): Promise<void> {
  await kysely(conn)
    .insertInto("Setting")
    .values({ key, value, updatedAt: at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updatedAt: at }))
    .execute();
}
