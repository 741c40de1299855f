import { createTwoFilesPatch } from "diff";
import type { Db } from "../db/client";
import { findPlanVersion } from "../db/plans/plans";
import { findReviewedVersion } from "../db/plans/reviews";
import { receivesOf } from "../core/agent-receives";
import { isExternalModel } from "../session/external-agents";
import { listComments } from "./plan-comments";
import type { PlanDetails } from "./plan-details";
import { threadsOn } from "./plan-threads";
import { planFiles } from "./weigh-approval";

export type { PlanDetails };

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
  const threads = threadsOn(await listComments(db, row.planId), row.content, row.version);
  return {
    planId: row.planId,
    version: row.version,
    markdown: row.content,
    path: row.filePath,
    workspace: row.workspace,
    status: row.status,
    editedByUser: row.editedByUser,
    previous: prev ? { version: prev.version, markdown: prev.content } : null,
    diff,
    threads,
    files: planFiles(row.content),
    receives: receivesOf(row.agent, isExternalModel(row.model)),
  };
}
