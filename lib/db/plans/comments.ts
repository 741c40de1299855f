import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely } from "../client";
import type { PlanComment } from "../generated-kysely/types";
import { newId } from "../../id";

/** Home of the PlanComment table: a reviewer's comments on lines of a version, written with the decision. */
export type PlanCommentRow = Omit<Selectable<PlanComment>, "planId">;
export type NewPlanComment = {
  lineStart: number;
  lineEnd: number;
  quote: string;
  body: string;
  suggestion?: string;
  /** A reply: the thread it answers (its first comment). */
  parentId?: string;
};

export async function insertPlanComments(
  conn: Conn,
  planId: string,
  version: number,
  comments: readonly NewPlanComment[],
  author: string,
  at = new Date(),
): Promise<void> {
  if (comments.length === 0) return;
  await kysely(conn)
    .insertInto("PlanComment")
    .values(
      comments.map((c) => ({
        id: newId("cmt"),
        planId,
        version,
        lineStart: c.lineStart,
        lineEnd: c.lineEnd,
        quote: c.quote,
        body: c.body,
        suggestion: c.suggestion ?? null,
        parentId: c.parentId ?? null,
        author,
        createdAt: at,
      })),
    )
    .execute();
}

/** Every comment on a plan, by version and line. */
export async function listPlanComments(conn: Conn, planId: string): Promise<PlanCommentRow[]> {
  return kysely(conn)
    .selectFrom("PlanComment")
    .select([
      "id",
      "version",
      "lineStart",
      "lineEnd",
      "quote",
      "body",
      "author",
      "createdAt",
      "suggestion",
      "parentId",
      "resolvedAt",
      "resolvedBy",
    ])
    .where("planId", "=", planId)
    .orderBy("version")
    .orderBy("lineStart")
    .orderBy("createdAt")
    .execute();
}

/** Marks threads resolved (their first comments, on this plan); one resolved already keeps who resolved it first. */
export async function resolvePlanThreads(
  conn: Conn,
  planId: string,
  ids: readonly string[],
  by: string,
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await kysely(conn)
    .updateTable("PlanComment")
    .set({ resolvedAt: at, resolvedBy: by })
    .where("planId", "=", planId)
    .where("id", "in", [...ids])
    .where("parentId", "is", null)
    .where("resolvedAt", "is", null)
    .execute();
}
