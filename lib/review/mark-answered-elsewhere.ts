// The terminal answered an outside agent's plan first: the review closes as answered elsewhere, through the one writer.
import "server-only";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { commitDecision } from "./commit-decision";
import { listReviews, type ReviewView } from "./read-review";
import type { TerminalAnswer } from "./review-types";

/**
 * Closes an outside agent's pending plan review as answered in its own terminal (decide() refuses a Plangate
 * agent's). Its plan version and the plan close with it: nothing shows the plan as awaiting review any more.
 */
export async function markAnsweredElsewhere(
  db: Db,
  reviewId: string,
  answer: TerminalAnswer["answer"],
): Promise<ReviewView> {
  const [review] = await listReviews(db, { id: reviewId });
  if (!review || review.kind !== "plan-review") throw new AppError("review_not_found");
  if (review.status !== "pending")
    throw new AppError("already_decided", `That review was already decided: ${review.decision ?? review.status}.`);
  const done = await commitDecision(
    db,
    review,
    { decision: answer === "approved" ? "approve" : "reject" },
    { by: "terminal", answer },
    // The agent goes on in its own terminal: nothing here runs its turn.
    { drive: async () => undefined },
  );
  return done.review;
}
