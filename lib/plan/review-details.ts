import { createTwoFilesPatch } from "diff";
import type { Db } from "../db/client";
import { findPlanVersion } from "../db/plans/plans";
import { findReviewedVersion } from "../db/plans/reviews";
import { carry, listComments, type CarriedComment } from "./plan-comments";
import { planFiles } from "./weigh-approval";

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
  /** The files its items name: what the review policy judges it by, shown on the card. */
  files: string[];
};

/** What a plan review shows: the plan, its version and what changed since the version before. */
export async function planDetails(db: Db, reviewId: string): Promise<PlanDetails | null> {
  const row = await findReviewedVersion(db, reviewId);
  if (!row) return null;
  const prev = await findPlanVersion(db, row.planId, row.version - 1);
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
    editedByUser: row.editedByUser,
    previous: prev ? { version: prev.version, markdown: prev.content } : null,
    diff,
    earlier,
    files: planFiles(row.content),
  };
}
