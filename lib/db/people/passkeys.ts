import "server-only";
import { type Conn, kysely } from "../client";

/**
 * Home of Passkey reads and removals: better-auth's passkey plugin adds the rows (its routes in app/api/auth);
 * the account page lists and removes a person's own here, so the plugin's list and delete routes are never offered.
 */
export type PasskeyView = { id: string; name: string | null; deviceType: string; createdAt: Date | null };

export async function passkeysOf(conn: Conn, userId: string): Promise<PasskeyView[]> {
  return kysely(conn)
    .selectFrom("Passkey")
    .select(["id", "name", "deviceType", "createdAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
}

/** Removes one of `userId`'s own passkeys; false when that person has none with this id (another's stays). */
export async function removePasskey(conn: Conn, userId: string, id: string): Promise<boolean> {
  const r = await kysely(conn)
    .deleteFrom("Passkey")
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
