import "server-only";
import { type Conn, kysely } from "../client";

/**
 * Home of SlackLink and SeenRequest (issue 46): which Slack user is which Plangate person (proved by that person
 * signing in with a one-time code Slack showed them), and the signed requests already acted on.
 */

/** The person a Slack user ("team:user") is linked to, or null. */
export async function findSlackPerson(conn: Conn, slackUser: string): Promise<string | null> {
  const row = await kysely(conn)
    .selectFrom("SlackLink")
    .select("userId")
    .where("slackUser", "=", slackUser)
    .where("linkedAt", "is not", null)
    .executeTakeFirst();
  return row?.userId ?? null;
}

/** A new one-time code for a Slack user (only its hash is kept); an earlier code of theirs stops working. */
export async function saveLinkCode(conn: Conn, slackUser: string, codeHash: string, expiresAt: Date): Promise<void> {
  await kysely(conn)
    .insertInto("SlackLink")
    .values({ slackUser, codeHash, codeExpiresAt: expiresAt, createdAt: new Date() })
    .onConflict((oc) => oc.column("slackUser").doUpdateSet({ codeHash, codeExpiresAt: expiresAt }))
    .execute();
}

/** The Slack user ("team:user") whose unexpired code this is, or null. */
export async function findCodeOwner(conn: Conn, codeHash: string, now: Date): Promise<string | null> {
  const row = await kysely(conn)
    .selectFrom("SlackLink")
    .select("slackUser")
    .where("codeHash", "=", codeHash)
    .where("codeExpiresAt", ">", now)
    .executeTakeFirst();
  return row?.slackUser ?? null;
}

/** Ends every link of this person's: their Slack buttons decide nothing and nothing goes to their Slack user. */
export async function unlinkSlackOf(conn: Conn, userId: string): Promise<number> {
  const r = await kysely(conn).deleteFrom("SlackLink").where("userId", "=", userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The Slack user whose unexpired code this is; their link is now to `userId` and the code is spent. */
export async function spendLinkCode(conn: Conn, codeHash: string, userId: string, now: Date): Promise<string | null> {
  const slackUser = await findCodeOwner(conn, codeHash, now);
  if (!slackUser) return null;
  const r = await kysely(conn)
    .updateTable("SlackLink")
    .set({ userId, linkedAt: now, codeHash: null, codeExpiresAt: null })
    .where("slackUser", "=", slackUser)
    .where("codeHash", "=", codeHash)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? slackUser : null;
}

/** Each of these people's linked Slack user id (the user part, what a mention or a direct message names). */
export async function slackIdsOf(conn: Conn, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await kysely(conn)
    .selectFrom("SlackLink")
    .select(["userId", "slackUser"])
    .where("userId", "in", [...userIds])
    .where("linkedAt", "is not", null)
    .orderBy("linkedAt", "desc")
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) if (r.userId && !out.has(r.userId)) out.set(r.userId, r.slackUser.split(":")[1] ?? "");
  return out;
}

/** Whether a person has linked a Slack user. */
export async function hasSlackLink(conn: Conn, userId: string): Promise<boolean> {
  return (await slackIdsOf(conn, [userId])).size > 0;
}

/**
 * Records a signed request as acted on, until it would be too old anyway: false when it was seen before (a replay).
 * Rows past their time are dropped as new ones come.
 */
export async function markRequestSeen(conn: Conn, key: string, expiresAt: Date, now: Date): Promise<boolean> {
  await kysely(conn).deleteFrom("SeenRequest").where("expiresAt", "<", now).execute();
  const r = await kysely(conn)
    .insertInto("SeenRequest")
    .values({ key, expiresAt })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}
