import type { Db } from "../db/client";
import { listReviewRows, type ReviewFilter, type ReviewRow } from "../db/plans/reviews";

export type ReviewView = {
  id: string;
  sessionId: string;
  kind: string;
  status: string;
  intent: unknown;
  payload: unknown;
  decision: string | null;
  answer: unknown;
  feedback: string | null;
  createdAt: string;
  decidedAt: string | null;
};

type Row = Pick<
  ReviewRow,
  "id" | "sessionId" | "kind" | "status" | "intent" | "payload" | "decision" | "answer" | "feedback"
> & { createdAt: string | Date; decidedAt: string | Date | null };

export function reviewView(r: Row): ReviewView {
  return {
    id: r.id,
    sessionId: r.sessionId,
    kind: r.kind,
    status: r.status,
    intent: JSON.parse(r.intent),
    payload: JSON.parse(r.payload),
    decision: r.decision,
    answer: r.answer ? JSON.parse(r.answer) : null,
    feedback: r.feedback,
    createdAt: new Date(r.createdAt).toISOString(),
    decidedAt: r.decidedAt ? new Date(r.decidedAt).toISOString() : null,
  };
}

export async function listReviews(db: Db, where: ReviewFilter): Promise<ReviewView[]> {
  return (await listReviewRows(db, where)).map(reviewView);
}
