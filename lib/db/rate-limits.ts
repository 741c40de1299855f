import "server-only";
import { sql } from "kysely";
import { type Conn, kysely } from "./client";

/**
 * Home of RateLimit: attempts counted per key in a fixed window from the first one, in the database so every
 * instance counts the same attempts. One statement takes an attempt (an upsert that starts a new window when the
 * last one closed), so concurrent attempts, on one instance or several, can never all slip under the limit.
 */
export type LimitRule = { max: number; windowMs: number };
/** retryAfterSeconds: when the window closes (at least 1 second), for a refused attempt's Retry-After. */
export type Taken = { allowed: boolean; count: number; retryAfterSeconds: number };

export async function takeAttempt(conn: Conn, key: string, rule: LimitRule, now = Date.now()): Promise<Taken> {
  const end = now + rule.windowMs;
  const closed = sql<boolean>`"RateLimit"."windowEnd" <= ${now}`;
  const row = await kysely(conn)
    .insertInto("RateLimit")
    .values({ key, count: 1, windowEnd: end })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`CASE WHEN ${closed} THEN 1 ELSE "RateLimit"."count" + 1 END`,
        windowEnd: sql<number>`CASE WHEN ${closed} THEN ${end} ELSE "RateLimit"."windowEnd" END`,
      }),
    )
    .returning(["count", "windowEnd"])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  // A new window: the closed ones of every key go (only now, not on every attempt).
  if (count === 1) await kysely(conn).deleteFrom("RateLimit").where("windowEnd", "<", now).execute();
  return {
    allowed: count <= rule.max,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((Number(row.windowEnd) - now) / 1000)),
  };
}

/** Gives an attempt back (it succeeded, or another limit refused it): only what failed stays counted. */
export async function giveBack(conn: Conn, key: string): Promise<void> {
  await kysely(conn)
    .updateTable("RateLimit")
    .set({ count: sql<number>`"count" - 1` })
    .where("key", "=", key)
    .where("count", ">", 0)
    .execute();
}

/** How many attempts the key's open window holds (0 when none is open). */
export async function attemptsOf(conn: Conn, key: string, now = Date.now()): Promise<number> {
  const row = await kysely(conn)
    .selectFrom("RateLimit")
    .select("count")
    .where("key", "=", key)
    .where("windowEnd", ">", now)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}
