import { type Signer, signedBy } from "../auth/rules/rights";
import { z } from "zod";
import type { Db } from "../db/client";
import { closeReview } from "../db/plans/close-review";
import { AppError } from "../errors";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../session/log/events";
import type { SessionState } from "../session/log/fold";
import { kick } from "./kick";
import { listReviews, type ReviewView } from "../review/read-review";

export const questionDecisionBody = z.union([
  z
    .object({
      answers: z
        .array(z.array(z.string().max(5000)).max(20))
        .min(1)
        .max(5),
    })
    .strict(),
  z.object({ decision: z.literal("abandon") }).strict(),
]);
export type QuestionDecision = z.infer<typeof questionDecisionBody>;

/** Answers (or dismisses) a pending question; exactly one decision per review, then the turn resumes. */
export async function answerQuestion(
  db: Db,
  review: ReviewView,
  body: QuestionDecision,
  signer?: Signer,
): Promise<ReviewView> {
  const decision = "answers" in body ? "answered" : "abandon";
  const resumed = newId("trn");
  // The turn may have been aborted while the question waited: the answer then opens a new turn to carry on.
  const answered = (s: SessionState): NewEvent[] => [
    {
      type: "review.answered",
      payload: { reviewId: review.id, decision, ...(signer ? { by: signedBy(signer) } : {}) },
    },
    ...(s.openTurnId ? [] : [{ type: "turn.started" as const, payload: { turnId: resumed, resumed: true } }]),
  ];
  await appendEvents(db, review.sessionId, answered, {
    also: async (run) => {
      // Only a person answers a question (the desk's decision route).
      const closed = await closeReview(run, review.id, {
        status: decision === "abandon" ? "abandoned" : "answered",
        decision,
        decidedBy: "user",
        decidedAt: new Date(),
        answer: "answers" in body ? JSON.stringify(body.answers) : null,
        ...(signer ? { signer } : {}),
      });
      if (!closed) throw new AppError("already_decided");
    },
  });
  kick(db, review.sessionId);
  const [after] = await listReviews(db, { id: review.id });
  return after ?? review;
}
