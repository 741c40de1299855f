import type { Executor } from "../db/client";
import { insertPlanSubmissionRows } from "../db/plans/plans";
import { indexDocs } from "../db/session-log/search-index";

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
export async function insertPlanSubmission(run: Executor, s: PlanSubmission): Promise<void> {
  const taken = !(await insertPlanSubmissionRows(run, { ...s, intent: JSON.stringify(s.intent) }));
  if (taken) throw new PlanVersionTaken("The plan changed while it was being submitted; try again.");
  await indexDocs(run, s.sessionId, [{ kind: "plan", body: s.markdown }]);
}
