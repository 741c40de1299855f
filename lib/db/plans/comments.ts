import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely } from "../client";
import type { PlanComment } from "../generated-kysely/types";
import { newId } from "../../id";

/** Home of the PlanComment table: a reviewer's comments on lines of a version, written with the decision. */
export type PlanCommentRow = Omit<Selectable<PlanComment>, "planId">;
export type NewPlanComment = { lineStart: number; lineEnd: number; quote: string; body: string };

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
    .select(["id", "version", "lineStart", "lineEnd", "quote", "body", "author", "createdAt"])
    .where("planId", "=", planId)
    .orderBy("version")
    .orderBy("lineStart")
    .orderBy("createdAt")
    .execute();
}
