// The terminal answered an outside agent's plan first: the review closes as answered elsewhere, with what it chose.
import "server-only";
import type { Db } from "../db/client";
import { closeReview } from "../db/plans/close-review";
import { findSessionModel, listReviewRows } from "../db/plans/reviews";
import { AppError } from "../errors";
import { listReviews, type ReviewView } from "./read-review";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../core/events";
import { isExternalModel } from "../session/external-agents";

/**
 * The agent's own dialog answered the plan before the desk did (Claude Code shows both; the first answer
 * wins and a late hook answer is ignored). The review closes as "answered_elsewhere" — never left pending, and
 * never counted as the desk's approval — with the exit call's result saying what the terminal chose when known.
 * Its plan version and the plan close with it: nothing shows the plan as awaiting review any more.
 */
export async function markAnsweredElsewhere(
  db: Db,
  reviewId: string,
  answer: "approved" | "rejected" | "unknown",
): Promise<ReviewView> {
  const [review] = await listReviewRows(db, { id: reviewId });
  if (!review || review.kind !== "plan-review") throw new AppError("review_not_found");
  const model = await findSessionModel(db, review.sessionId);
  if (model === undefined || !isExternalModel(model))
    throw new AppError("forbidden", "That review belongs to a Plangate agent's session, not an outside agent's.");
  if (review.status !== "pending")
    throw new AppError("already_decided", `That review was already decided: ${review.decision ?? review.status}.`);
  const callId = review.toolCallId;
  const text = {
    approved: "Approved in the agent's own terminal.",
    rejected: "Rejected in the agent's own terminal.",
    unknown: "Answered in the agent's own terminal.",
  }[answer];
  await appendEvents(
    db,
    review.sessionId,
    (s) => {
      if (s.pendingReview?.id !== reviewId) return [];
      const out: NewEvent[] = [
        { type: "review.answered", payload: { reviewId, decision: "answered_elsewhere", feedback: text } },
      ];
      if (callId)
        out.push({
          type: "tool.result",
          payload: {
            callId,
            tool: "exit_plan_mode",
            ok: answer === "approved",
            ...(answer === "approved" ? { output: text } : { error: text }),
          },
        });
      if (s.openTurnId) out.push({ type: "turn.ended", payload: { turnId: s.openTurnId, reason: "done" } });
      return out;
    },
    {
      also: async (run, result) => {
        if (result.events.length === 0) return;
        const closed = await closeReview(run, reviewId, {
          status: "answered_elsewhere",
          decision: answer,
          decidedBy: "terminal",
          decidedAt: new Date(),
          feedback: text,
        });
        if (!closed) throw new AppError("already_decided");
      },
    },
  );
  const [after] = await listReviews(db, { id: reviewId });
  // Decided on the desk meanwhile (the same review is no longer the session's pending one).
  if (after?.status !== "answered_elsewhere") throw new AppError("already_decided");
  return after;
}
