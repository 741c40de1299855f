import { sql, type Db } from "../db/client";
import { AppError } from "../errors";
import { listReviews, type ReviewView } from "../plan/list-reviews";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../core/events";
import { isExternalModel } from "../session/external-agents";

/**
 * The agent's own dialog answered the plan before the desk did (Claude Code shows both; the first answer
 * wins and a late hook answer is ignored). The review closes as "answered_elsewhere" — never left pending, and
 * never counted as the desk's approval — with the exit call's result saying what the terminal chose when known.
 */
export async function markAnsweredElsewhere(
  db: Db,
  reviewId: string,
  answer: "approved" | "rejected" | "unknown",
): Promise<ReviewView> {
  const [review] = await listReviews(db, { id: reviewId });
  if (!review || review.kind !== "plan-review") throw new AppError("review_not_found");
  const [owner] = await (await sql(db)).query<{ model: string }>('SELECT "model" FROM "Session" WHERE "id" = ?', [
    review.sessionId,
  ]);
  if (!owner || !isExternalModel(owner.model))
    throw new AppError("forbidden", "That review belongs to a Plangate agent's session, not an outside agent's.");
  if (review.status !== "pending")
    throw new AppError("already_decided", `That review was already decided: ${review.decision ?? review.status}.`);
  const [row] = await (await sql(db)).query<{ toolCallId: string | null }>(
    'SELECT "toolCallId" FROM "Review" WHERE "id" = ?',
    [reviewId],
  );
  const callId = row?.toolCallId ?? null;
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
        const changed = await run.execute(
          'UPDATE "Review" SET "status" = ?, "decision" = ?, "feedback" = ?, "decidedBy" = ?, "pendingKey" = NULL, "decidedAt" = ? WHERE "id" = ? AND "status" = ?',
          ["answered_elsewhere", answer, text, "terminal", new Date(), reviewId, "pending"],
        );
        if (changed !== 1) throw new AppError("already_decided");
        await run.execute(
          'UPDATE "PlanVersion" SET "status" = ?, "decidedBy" = ?, "decidedAt" = ? WHERE "planId" = (SELECT "planId" FROM "Review" WHERE "id" = ?) AND "version" = (SELECT "planVersion" FROM "Review" WHERE "id" = ?)',
          ["answered_elsewhere", "terminal", new Date(), reviewId, reviewId],
        );
      },
    },
  );
  const [after] = await listReviews(db, { id: reviewId });
  // Decided on the desk meanwhile (the same review is no longer the session's pending one).
  if (after?.status !== "answered_elsewhere") throw new AppError("already_decided");
  return after;
}
