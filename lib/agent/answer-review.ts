import { z } from "zod";
import { sql, type Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../session/events";
import type { SessionState } from "../session/fold";
import { kick } from "./kick";

export const questionDecisionBody = z.union([
  z.object({ answers: z.array(z.array(z.string().max(5000)).max(20)).min(1).max(5) }).strict(),
  z.object({ decision: z.literal("abandon") }).strict(),
]);
export type QuestionDecision = z.infer<typeof questionDecisionBody>;

export type ReviewView = {
  id: string; sessionId: string; kind: string; status: string; intent: unknown; payload: unknown;
  decision: string | null; answer: unknown; feedback: string | null; createdAt: string; decidedAt: string | null;
};

type Row = {
  id: string; sessionId: string; kind: string; status: string; intent: string; payload: string; decision: string | null;
  answer: string | null; feedback: string | null; createdAt: string | Date; decidedAt: string | Date | null;
};

export function reviewView(r: Row): ReviewView {
  return {
    id: r.id, sessionId: r.sessionId, kind: r.kind, status: r.status, intent: JSON.parse(r.intent), payload: JSON.parse(r.payload),
    decision: r.decision, answer: r.answer ? JSON.parse(r.answer) : null, feedback: r.feedback,
    createdAt: new Date(r.createdAt).toISOString(), decidedAt: r.decidedAt ? new Date(r.decidedAt).toISOString() : null,
  };
}

export async function listReviews(db: Db, where: { id?: string; sessionId?: string; status?: string }): Promise<ReviewView[]> {
  const clauses: string[] = [];
  const args: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    clauses.push(`"${key}" = ?`);
    args.push(value);
  }
  const rows = await (await sql(db)).query<Row>(
    `SELECT "id", "sessionId", "kind", "status", "intent", "payload", "decision", "answer", "feedback", "createdAt", "decidedAt" FROM "Review"${clauses.length ? ` WHERE ${clauses.join(" AND ")}` : ""} ORDER BY "createdAt", "id"`,
    args,
  );
  return rows.map(reviewView);
}

/** Answers (or dismisses) a pending question; exactly one decision per review, then the turn resumes. */
export async function answerQuestion(db: Db, review: ReviewView, body: QuestionDecision): Promise<ReviewView> {
  const decision = "answers" in body ? "answered" : "abandon";
  const resumed = newId("trn");
  // The turn may have been aborted while the question waited: the answer then opens a new turn to carry on.
  const answered = (s: SessionState): NewEvent[] => [
    { type: "review.answered", payload: { reviewId: review.id, decision } },
    ...(s.openTurnId ? [] : [{ type: "turn.started" as const, payload: { turnId: resumed, resumed: true } }]),
  ];
  await appendEvents(db, review.sessionId, answered, {
    also: async (run) => {
      const changed = await run.execute(
        'UPDATE "Review" SET "status" = ?, "decision" = ?, "answer" = ?, "pendingKey" = NULL, "decidedAt" = ? WHERE "id" = ? AND "status" = ?',
        [decision === "abandon" ? "abandoned" : "answered", decision, "answers" in body ? JSON.stringify(body.answers) : null, new Date(), review.id, "pending"],
      );
      if (changed !== 1) throw new AppError("already_decided");
    },
  });
  kick(db, review.sessionId);
  const [after] = await listReviews(db, { id: review.id });
  return after ?? review;
}
