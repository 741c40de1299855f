import { createTwoFilesPatch } from "diff";
import { sql, type Db } from "../db/client";
import { carry, listComments, type CarriedComment } from "./plan-comments";

export type PlanDetails = {
  planId: string;
  version: number;
  markdown: string;
  path: string;
  status: string;
  editedByUser: boolean;
  previous: { version: number; markdown: string } | null;
  /** Unified diff from the previous version (empty for the first). */
  diff: string;
  /** Comments made on earlier versions, each marked resolved when its lines are gone from this one. */
  earlier: CarriedComment[];
};

/** What a plan review shows: the plan, its version and what changed since the version before. */
export async function planDetails(db: Db, reviewId: string): Promise<PlanDetails | null> {
  const run = await sql(db);
  const [row] = await run.query<{
    planId: string;
    version: number;
    content: string;
    filePath: string;
    status: string;
    editedByUser: boolean;
  }>(
    'SELECT v."planId", v."version", v."content", v."filePath", v."status", v."editedByUser" FROM "Review" r JOIN "PlanVersion" v ON v."planId" = r."planId" AND v."version" = r."planVersion" WHERE r."id" = ?',
    [reviewId],
  );
  if (!row) return null;
  const [prev] = await run.query<{ version: number; content: string }>(
    'SELECT "version", "content" FROM "PlanVersion" WHERE "planId" = ? AND "version" = ?',
    [row.planId, row.version - 1],
  );
  const diff = prev
    ? createTwoFilesPatch(`plan v${prev.version}`, `plan v${row.version}`, prev.content, row.content, "", "", {
        context: 3,
      })
    : "";
  const earlier = carry(
    (await listComments(db, row.planId)).filter((c) => c.version < row.version),
    row.content,
  );
  return {
    planId: row.planId,
    version: row.version,
    markdown: row.content,
    path: row.filePath,
    status: row.status,
    editedByUser: Boolean(row.editedByUser),
    previous: prev ? { version: prev.version, markdown: prev.content } : null,
    diff,
    earlier,
  };
}
