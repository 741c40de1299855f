import "server-only";
import { credentialOf, type Signer, signedBy } from "../../auth/rules/rights";
import { type Conn, withTransaction } from "../client";
import { appendAudit } from "../people/audit";
import { type Bind, shapedQuery } from "../shaped-query";

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
  /** The person (or the operator) who decided, recorded on the review and in the audit log. */
  signer?: Signer;
  /** A question's answers, as JSON. */
  answer?: string | null;
  /** What an approval changes in the version besides its verdict: the person's edit, the baseline to verify against. */
  version?: { content: string; editedByUser: boolean; baselineTree: string | null };
};

export type ClosedReview = { planId: string | null; planVersion: number | null; sessionId: string };

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
    const values = {
      reviewId,
      status: c.status,
      decision: c.decision,
      feedback: c.feedback ?? null,
      decidedBy: c.decidedBy,
      decidedAt: c.decidedAt,
      answer: c.answer ?? null,
      deciderId: c.signer?.by === "person" ? c.signer.userId : null,
      deciderName: c.signer ? signedBy(c.signer) : null,
      credential: c.signer ? credentialOf(c.signer) : null,
      ...c.version,
    };
    const [closed] = await closeRows(trx, "close", values, (bind) =>
      trx
        .updateTable("Review")
        .set({
          ...verdict(bind),
          answer: bind<string | null>("answer"),
          deciderId: bind<string | null>("deciderId"),
          deciderName: bind<string | null>("deciderName"),
          credential: bind<string | null>("credential"),
          pendingKey: null,
        })
        .where("id", "=", bind<string>("reviewId"))
        .where("status", "=", "pending")
        .returning(["planId", "planVersion", "sessionId"]),
    );
    if (!closed) return null;
    if (c.signer)
      await appendAudit(trx, {
        signer: c.signer,
        kind: `review.${c.status}`,
        sessionId: closed.sessionId,
        subject: reviewId,
        detail: { decision: c.decision, ...(c.feedback ? { feedback: c.feedback } : {}) },
      });
    if (closed.planId === null || closed.planVersion === null) return closed;
    const onPlan = { ...values, planId: closed.planId, planVersion: closed.planVersion };
    await versionRows(trx, c.version ? "version:edit" : "version", onPlan, (bind) =>
      trx
        .updateTable("PlanVersion")
        .set({
          ...verdict(bind),
          ...(c.version
            ? {
                content: bind<string>("content"),
                editedByUser: bind<boolean>("editedByUser"),
                baselineTree: bind<string | null>("baselineTree"),
              }
            : {}),
        })
        .where("planId", "=", bind<string>("planId"))
        .where("version", "=", bind<number>("planVersion")),
    );
    await planRows(trx, "plan", onPlan, (bind) =>
      trx
        .updateTable("Plan")
        .set({ status: bind<string>("status"), updatedAt: bind<Date>("decidedAt") })
        .where("id", "=", bind<string>("planId"))
        .where("currentVersion", "=", bind<number>("planVersion")),
    );
    return closed;
  });
}

// One decision runs these three in its transaction: compiled once (see shapedQuery).
const closeRows = shapedQuery<ClosedReview>();
const versionRows = shapedQuery<unknown>();
const planRows = shapedQuery<unknown>();

/** The verdict's columns, alike on the review and its plan version. */
const verdict = (bind: Bind) => ({
  status: bind<string>("status"),
  decision: bind<string>("decision"),
  feedback: bind<string | null>("feedback"),
  decidedBy: bind<string>("decidedBy"),
  decidedAt: bind<Date>("decidedAt"),
});
