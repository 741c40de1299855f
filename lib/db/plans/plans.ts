import "server-only";
import { type Conn, kysely, withTransaction } from "../client";
import { newId } from "../../id";
import { insertReview } from "./reviews";

/** Home of the Plan and PlanVersion rows: a plan, its versions as submitted, and the pending review of each. */
export type PlanRef = { id: string; currentVersion: number };

/** A session's plan file gets its Plan row; the session carries the plan's slug (shown in lists) from then on. */
export async function insertPlan(
  conn: Conn,
  p: { id: string; sessionId: string; slug: string; filePath: string; at: Date },
): Promise<void> {
  await withTransaction(conn, async (trx) => {
    await trx
      .insertInto("Plan")
      .values({
        id: p.id,
        sessionId: p.sessionId,
        slug: p.slug,
        filePath: p.filePath,
        status: "draft",
        currentVersion: 0,
        createdAt: p.at,
        updatedAt: p.at,
      })
      .execute();
    await trx.updateTable("Session").set({ planSlug: p.slug, updatedAt: p.at }).where("id", "=", p.sessionId).execute();
  });
}

export async function findPlanByFile(conn: Conn, sessionId: string, filePath: string): Promise<PlanRef | undefined> {
  return kysely(conn)
    .selectFrom("Plan")
    .select(["id", "currentVersion"])
    .where("sessionId", "=", sessionId)
    .where("filePath", "=", filePath)
    .executeTakeFirst();
}

/** The session's first plan (an outside agent's session has one, whatever file its later plans name). */
export async function findFirstPlan(conn: Conn, sessionId: string): Promise<PlanRef | undefined> {
  return kysely(conn)
    .selectFrom("Plan")
    .select(["id", "currentVersion"])
    .where("sessionId", "=", sessionId)
    .orderBy("createdAt")
    .limit(1)
    .executeTakeFirst();
}

export type PlanSubmissionRows = {
  sessionId: string;
  planId: string;
  version: number;
  markdown: string;
  file: string;
  reviewId: string;
  callId: string;
  /** The review's intent, as JSON. */
  intent: string;
};

/**
 * A submitted version, the plan's move to it and its pending review. The move is guarded on the version before,
 * so two submissions never take one number: false (nothing written) when another took it first.
 */
export async function insertPlanSubmissionRows(conn: Conn, s: PlanSubmissionRows): Promise<boolean> {
  return withTransaction(conn, async (trx) => {
    const at = new Date();
    const bumped = await trx
      .updateTable("Plan")
      .set({ currentVersion: s.version, status: "submitted", updatedAt: at })
      .where("id", "=", s.planId)
      .where("currentVersion", "=", s.version - 1)
      .executeTakeFirst();
    if (Number(bumped.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto("PlanVersion")
      .values({
        id: newId("plv"),
        planId: s.planId,
        version: s.version,
        content: s.markdown,
        filePath: s.file,
        status: "submitted",
        editedByUser: false,
        createdAt: at,
      })
      .execute();
    await insertReview(trx, {
      id: s.reviewId,
      sessionId: s.sessionId,
      kind: "plan-review",
      intent: s.intent,
      payload: JSON.stringify({ path: s.file, version: s.version }),
      toolCallId: s.callId,
      planId: s.planId,
      planVersion: s.version,
      createdAt: at,
    });
    return true;
  });
}

export async function findPlanVersion(
  conn: Conn,
  planId: string,
  version: number,
): Promise<{ version: number; content: string } | undefined> {
  return kysely(conn)
    .selectFrom("PlanVersion")
    .select(["version", "content"])
    .where("planId", "=", planId)
    .where("version", "=", version)
    .executeTakeFirst();
}
