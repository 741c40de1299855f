// An outside agent's hook waiting on its plan review: the outcome as it stands, and the long poll until it is decided.
import "server-only";
import type { Db } from "../db/client";
import { findCallResultPayload, findReviewedVersion } from "../db/plans/reviews";
import { AppError } from "../errors";
import { listReviews } from "./read-review";
import { getSession } from "../session/get-session";
import { logMoved } from "../session/log-watch";
import { isExternalModel } from "../session/external-agents";

/** What an outside agent's hook needs to answer its agent, once a person decided (or the terminal did). */
export type ExternalReviewOutcome = {
  reviewId: string;
  sessionId: string;
  status: string;
  decision: string | null;
  /** The plan as decided: the person's edit when they edited it. */
  plan: string;
  edited: boolean;
  /** The session's mode after the decision (what the agent should switch to on approval). */
  mode: string;
  /** The text Plangate's own agent would receive as the exit call's result: feedback and line comments included. */
  message: string | null;
};

export async function readExternalReview(db: Db, reviewId: string): Promise<ExternalReviewOutcome> {
  const [review] = await listReviews(db, { id: reviewId });
  if (!review || review.kind !== "plan-review") throw new AppError("review_not_found");
  const { session, state } = await getSession(db, review.sessionId);
  if (!isExternalModel(session.model))
    throw new AppError("forbidden", "That review belongs to a Plangate agent's session, not an outside agent's.");
  const version = await findReviewedVersion(db, reviewId);
  if (!version) throw new AppError("review_not_found", "That review has no plan version.");
  let message: string | null = null;
  if (review.status !== "pending" && version.toolCallId) {
    const payload = await findCallResultPayload(db, review.sessionId, version.toolCallId);
    if (payload) {
      const result = JSON.parse(payload) as { ok: boolean; output?: unknown; error?: string };
      message = result.ok ? (typeof result.output === "string" ? result.output : null) : (result.error ?? null);
    }
  }
  return {
    reviewId,
    sessionId: review.sessionId,
    status: review.status,
    decision: review.decision,
    plan: version.content,
    edited: version.editedByUser,
    mode: state.mode,
    message,
  };
}

/** Long poll: the review's outcome once it is no longer pending, or as it stands after waitMs. */
export async function awaitExternalReview(
  db: Db,
  reviewId: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<ExternalReviewOutcome> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const outcome = await readExternalReview(db, reviewId);
    const left = deadline - Date.now();
    if (outcome.status !== "pending" || left <= 0 || signal?.aborted) return outcome;
    // A missed wake-up costs at most 2 s.
    await logMoved(db, outcome.sessionId, Math.min(left, 2_000));
  }
}
