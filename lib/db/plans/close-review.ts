import "server-only";
import { type Conn, withTransaction } from "../client";

/**
 * What a review's status becomes when it leaves pending. "abandoned" also covers a review superseded by a newer
 * plan version (its decision says "superseded").
 */
export type ClosedStatus = "approved" | "rejected" | "abandoned" | "answered" | "answered_elsewhere";

/** How a review left pending: one verdict, written alike on the review and on the plan version it was about. */
export type ReviewClosing = {
  status: ClosedStatus;
  decision: string;
  /** Who closed it: user, lead, lead-model, terminal, or the outside agent whose newer plan replaced it. */
  decidedBy: string;
  decidedAt: Date;
  feedback?: string | null;
  /** A question's answers, as JSON. */
  answer?: string | null;
  /** What an approval changes in the version besides its verdict: the person's edit, the baseline to verify against. */
  version?: { content: string; editedByUser: boolean; baselineTree: string | null };
};

export type ClosedReview = { planId: string | null; planVersion: number | null };

/**
 * The one way a review leaves pending, whoever closes it (a person's decision, the agent's own terminal, a newer
 * plan version, a question's answer), in the caller's transaction with the event it appends. The review, its
 * plan version and the plan change together, so the desk, History, the exports and the session list never
 * disagree about a plan: the plan takes the verdict while the reviewed version is still its current one (a newer
 * version submitted in the same transaction sets it back to "submitted"). A question's review has no plan rows.
 * Null when the review was no longer pending: of concurrent closings exactly one wins, and the caller says how
 * the others fail.
 */
export async function closeReview(conn: Conn, reviewId: string, c: ReviewClosing): Promise<ClosedReview | null> {
  return withTransaction(conn, async (trx) => {
    const verdict = {
      status: c.status,
      decision: c.decision,
      feedback: c.feedback ?? null,
      decidedBy: c.decidedBy,
      decidedAt: c.decidedAt,
    };
    const closed = await trx
      .updateTable("Review")
      .set({ ...verdict, answer: c.answer ?? null, pendingKey: null })
      .where("id", "=", reviewId)
      .where("status", "=", "pending")
      .returning(["planId", "planVersion"])
      .executeTakeFirst();
    if (!closed) return null;
    if (closed.planId === null || closed.planVersion === null) return closed;
    await trx
      .updateTable("PlanVersion")
      .set({ ...verdict, ...c.version })
      .where("planId", "=", closed.planId)
      .where("version", "=", closed.planVersion)
      .execute();
    await trx
      .updateTable("Plan")
      .set({ status: c.status, updatedAt: c.decidedAt })
      .where("id", "=", closed.planId)
      .where("currentVersion", "=", closed.planVersion)
      .execute();
    return closed;
  });
}
