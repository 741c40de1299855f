import type { SqlRunner } from "../db/sql";
import { newId } from "../id";
import { indexDocs } from "../session/search-index";

export const PLAN_REVIEW_INTENT = { kind: "plan-review", approve: "Approve" } as const;
/** A teammate's plan: decided by its team lead through the mailbox, never by the browser review route. */
export const LEAD_REVIEW_INTENT = { ...PLAN_REVIEW_INTENT, approver: "lead" } as const;

export type PlanSubmission = {
  sessionId: string;
  planId: string;
  version: number;
  markdown: string;
  file: string;
  reviewId: string;
  callId: string;
  intent: object;
};

/** Thrown when another submission took this version number first. */
export class PlanVersionTaken extends Error {
  override name = "PlanVersionTaken";
}

/**
 * The rows of one plan submission, in the caller's transaction (with its review.asked event): the new version,
 * its search document, the plan's version bump (guarded, so two submissions never take one number) and the
 * pending review. Plangate's own exit_plan_mode and an outside agent's plan both go through here.
 */
export async function insertPlanSubmission(run: SqlRunner, s: PlanSubmission): Promise<void> {
  const at = new Date();
  await run.execute(
    'INSERT INTO "PlanVersion" ("id", "planId", "version", "content", "filePath", "status", "editedByUser", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [newId("plv"), s.planId, s.version, s.markdown, s.file, "submitted", false, at],
  );
  await indexDocs(run, s.sessionId, [{ kind: "plan", body: s.markdown }]);
  const bumped = await run.execute(
    'UPDATE "Plan" SET "currentVersion" = ?, "status" = ?, "updatedAt" = ? WHERE "id" = ? AND "currentVersion" = ?',
    [s.version, "submitted", at, s.planId, s.version - 1],
  );
  if (bumped !== 1) throw new PlanVersionTaken("The plan changed while it was being submitted; try again.");
  await run.execute(
    'INSERT INTO "Review" ("id", "sessionId", "kind", "status", "pendingKey", "intent", "payload", "toolCallId", "planId", "planVersion", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      s.reviewId,
      s.sessionId,
      "plan-review",
      "pending",
      s.sessionId,
      JSON.stringify(s.intent),
      JSON.stringify({ path: s.file, version: s.version }),
      s.callId,
      s.planId,
      s.version,
      at,
    ],
  );
}
