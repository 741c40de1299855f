import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely } from "../client";
import type { PushSubscription } from "../generated-kysely/types";

/** Home of PushSubscription (issue 46): a person's devices that take Web Push, one row per push endpoint. */
export type PushRow = Selectable<PushSubscription>;

/** Adds a device's subscription (its endpoint is unique: the caller looks it up first). */
export async function insertPushSubscription(conn: Conn, row: PushRow): Promise<void> {
  await kysely(conn).insertInto("PushSubscription").values(row).execute();
}

/** The device with this endpoint, whoever's it is. */
export async function findPushByEndpoint(conn: Conn, endpoint: string): Promise<PushRow | undefined> {
  return kysely(conn).selectFrom("PushSubscription").selectAll().where("endpoint", "=", endpoint).executeTakeFirst();
}

export async function listPushSubscriptionsOf(conn: Conn, userIds: readonly string[]): Promise<PushRow[]> {
  if (userIds.length === 0) return [];
  return kysely(conn)
    .selectFrom("PushSubscription")
    .selectAll()
    .where("userId", "in", [...userIds])
    .orderBy("id")
    .execute();
}

export async function findPushSubscription(conn: Conn, id: string): Promise<PushRow | undefined> {
  return kysely(conn).selectFrom("PushSubscription").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Removes one of a person's devices (theirs only); false when they have none by that id. */
export async function deletePushSubscription(conn: Conn, userId: string, id: string): Promise<boolean> {
  const r = await kysely(conn)
    .deleteFrom("PushSubscription")
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** A device its push service says is gone (404, 410): nothing more is sent to it. */
export async function dropPushSubscription(conn: Conn, id: string): Promise<void> {
  await kysely(conn).deleteFrom("PushSubscription").where("id", "=", id).execute();
}
