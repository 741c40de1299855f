// Submitting a plan version for review, for our exit_plan_mode and for outside agents: its events and its rows.
import "server-only";
import type { NewEvent } from "../session/log/events";
import type { SessionState, TeamMembership } from "../session/log/fold";
import type { Executor } from "../db/client";
import { insertPlanSubmissionRows, type PlanSubmissionRows } from "../db/plans/plans";
import { indexDocs } from "../db/session-log/search-rows";
import { insertMail } from "../team/mailbox";
import { AppError } from "../errors";
import { applyRows } from "./apply-rows";
import { supersededRows } from "./close-elsewhere";

export const PLAN_REVIEW_INTENT = { kind: "plan-review", approve: "Approve" } as const;
/** A teammate's plan: decided by its team lead through the mailbox, never by the browser review route. */
export const LEAD_REVIEW_INTENT = { ...PLAN_REVIEW_INTENT, approver: "lead" } as const;

/** Thrown when another submission took this version number first. */
export class PlanVersionTaken extends Error {
  override name = "PlanVersionTaken";
}

/** One submission: the version's rows, and the session's team (a teammate's plan goes to its lead's mailbox). */
export type PlanSubmission = Omit<PlanSubmissionRows, "intent"> & { team: TeamMembership | null };

/** The team whose lead decides this plan through its mailbox: a teammate's, when its team requires approval. */
export function leadTeamOf(team: TeamMembership | null): TeamMembership | null {
  return team?.role === "teammate" && team.requirePlanApproval ? team : null;
}

/** Whose words the teammate's notice is in: our agent's tool, or an outside agent's hook. */
export type Submitter = "ours" | "outside";

/** Pure: the events of one submission, `review.asked` and, for a teammate's plan, the notice that the lead decides it. */
export function submissionEvents(
  s: Pick<PlanSubmission, "team" | "version" | "reviewId" | "callId">,
  by: Submitter,
): NewEvent[] {
  const asked: NewEvent = {
    type: "review.asked",
    payload: { reviewId: s.reviewId, kind: "plan-review", toolCallId: s.callId, planVersion: s.version },
  };
  if (!leadTeamOf(s.team)) return [asked];
  const text =
    by === "ours"
      ? `Plan version ${s.version} submitted to the team lead for approval (request ${s.reviewId}); waiting for the answer.`
      : `Plan version ${s.version} sent to the team lead's mailbox for approval.`;
  return [asked, { type: "notice", payload: { level: "info", text } }];
}

/**
 * The rows of one submission, in the transaction of its events: the new version, its search document, the plan's
 * version bump (guarded, so two submissions never take one number), the pending review and, for a teammate's
 * plan, the request in its lead's mailbox (in the same transaction as the review it waits on).
 */
export async function submitPlan(run: Executor, s: PlanSubmission): Promise<void> {
  const lead = leadTeamOf(s.team);
  const intent = JSON.stringify(lead ? LEAD_REVIEW_INTENT : PLAN_REVIEW_INTENT);
  const { team: _, ...rows } = s;
  if (!(await insertPlanSubmissionRows(run, { ...rows, intent })))
    throw new PlanVersionTaken("The plan changed while it was being submitted; try again.");
  await indexDocs(run, s.sessionId, [{ kind: "plan", body: s.markdown }]);
  if (!lead) return;
  await insertMail(run, {
    teamId: lead.id,
    from: s.sessionId,
    to: lead.leadSessionId,
    type: "plan_approval_request",
    requestId: s.reviewId,
    payload: {
      from: lead.name,
      requestId: s.reviewId,
      planFilePath: s.file,
      planContent: s.markdown,
      version: s.version,
    },
  });
}

/** Pure: a review still pending when a new version arrives (an outside agent's hook gave up) is superseded. */
export function supersedeEvents(state: Pick<SessionState, "pendingReview">): NewEvent[] {
  const pending = state.pendingReview;
  return pending ? [{ type: "review.answered", payload: { reviewId: pending.id, decision: "superseded" } }] : [];
}

/**
 * The superseded review closes, before the new version becomes the plan's current one, and the approvals it
 * gathered are dismissed (they approved another text, as GitHub's stale approvals). In the submission's transaction.
 */
export async function closeSuperseded(
  run: Executor,
  sessionId: string,
  events: NewEvent[],
  newVersion: number,
  decidedBy: string,
): Promise<void> {
  const superseded = events.find((e) => e.type === "review.answered");
  if (superseded?.type !== "review.answered") return;
  const target = { reviewId: superseded.payload.reviewId, sessionId };
  // A review already closed meanwhile needs no closing: the new version goes in all the same.
  await applyRows(run, target, supersededRows(newVersion, decidedBy)).catch((error: unknown) => {
    if (!(error instanceof AppError && error.code === "already_decided")) throw error;
  });
}
