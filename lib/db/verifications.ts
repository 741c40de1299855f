import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely } from "./client";
import type { Verification } from "./generated-kysely/types";

/** Home of the Verification table: checks of the work against an approved plan version (the report is JSON text). */
export type VerificationRow = Selectable<Verification>;

export async function insertVerification(conn: Conn, row: VerificationRow): Promise<void> {
  await kysely(conn).insertInto("Verification").values(row).execute();
}

/** How many checks a plan version has had. */
export async function countVerifications(conn: Conn, planId: string, planVersion: number): Promise<number> {
  const row = await kysely(conn)
    .selectFrom("Verification")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("planId", "=", planId)
    .where("planVersion", "=", planVersion)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The status of a plan version's latest check ("pass", "fail" or "unverified"), or null before its first. */
export async function lastVerificationStatus(conn: Conn, planId: string, planVersion: number): Promise<string | null> {
  const row = await kysely(conn)
    .selectFrom("Verification")
    .select("status")
    .where("planId", "=", planId)
    .where("planVersion", "=", planVersion)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.status ?? null;
}

export async function selectVerifications(conn: Conn, sessionId: string): Promise<VerificationRow[]> {
  return kysely(conn)
    .selectFrom("Verification")
    .select(["id", "sessionId", "planId", "planVersion", "status", "method", "report", "createdAt"])
    .where("sessionId", "=", sessionId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}
