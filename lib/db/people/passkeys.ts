import "server-only";
import { type Conn, kysely } from "../client";

/**
 * Home of Passkey reads: better-auth's passkey plugin writes the rows (its routes in app/api/auth); the account
 * page lists a person's own here, so its list route is never offered.
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
