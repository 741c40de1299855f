// Reading plan reviews: the rows as views, the card's plan details, and where a review stands for a reader.
import "server-only";
import { createTwoFilesPatch } from "diff";
import { receivesOf } from "./rules/agent-receives";
import type { Actor } from "../auth/rules/rights";
import type { Conn, Db } from "../db/client";
import { listPlanComments } from "../db/plans/comments";
import { findPlanVersion } from "../db/plans/plans";
import { findReviewedVersion, listReviewRows, type ReviewFilter, type ReviewRow } from "../db/plans/reviews";
import { listSessionRowsById } from "../db/sessions";
import { isExternalModel } from "../session/external-agents";
import { type StoredComment, threadsOn } from "./anchor-threads";
import { type Standing, standingOf } from "./check-decider";
import { approverOf, isLeadReview, loadLeadPeople, loadNeeds, planFiles } from "./load-review";
import type { PlanDetails, ReviewView } from "./review-types";
import { type ReviewStatus, statusOf } from "./weigh-policy";

export type { PlanDetails, ReviewView };

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

export async function listReviews(db: Conn, where: ReviewFilter): Promise<ReviewView[]> {
  return (await listReviewRows(db, where)).map(reviewView);
}

/** Every comment on a plan, by version and line. */
export async function listComments(db: Conn, planId: string): Promise<StoredComment[]> {
  return (await listPlanComments(db, planId)).map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    resolvedAt: r.resolvedAt?.toISOString() ?? null,
  }));
}

/** What a plan review shows: the plan, its version and what changed since the version before. */
export async function planDetails(db: Db, reviewId: string): Promise<PlanDetails | null> {
  const row = await findReviewedVersion(db, reviewId);
  if (!row) return null;
  const prev = await findPlanVersion(db, row.planId, row.version - 1);
  const diff = prev
    ? createTwoFilesPatch(`plan v${prev.version}`, `plan v${row.version}`, prev.content, row.content, "", "", {
        context: 3,
      })
    : "";
  const threads = threadsOn(await listComments(db, row.planId), row.content, row.version);
  return {
    planId: row.planId,
    version: row.version,
    markdown: row.content,
    path: row.filePath,
    workspace: row.workspace,
    status: row.status,
    editedByUser: row.editedByUser,
    previous: prev ? { version: prev.version, markdown: prev.content } : null,
    diff,
    threads,
    files: planFiles(row.content),
    receives: receivesOf(row.agent, isExternalModel(row.model)),
  };
}

/** Where a plan review stands: its policy's words, and for `actor` whether their decision would count. */
export type ReviewPosition = { status: ReviewStatus; standing: Standing | null };

/** A plan review's position (null: not a plan review, or no version); `decided` words for a closed review. */
export async function reviewPosition(
  conn: Conn,
  review: Pick<ReviewView, "id" | "sessionId" | "intent" | "status">,
  actor?: Actor,
  /** The route this reader's card sends to (the mailbox page's card answers through the mailbox). */
  from?: "desk" | "mailbox",
): Promise<ReviewPosition | null> {
  const version = await findReviewedVersion(conn, review.id);
  if (!version) return null;
  const needs = await loadNeeds(conn, review.id, version, { approvals: true });
  const status = statusOf(needs, review.status === "pending" ? undefined : review.status);
  if (!actor || review.status !== "pending") return { status, standing: null };
  const lead = isLeadReview(review);
  const [session] = lead ? await listSessionRowsById(conn, [review.sessionId]) : [];
  const leadPeople = lead ? await loadLeadPeople(conn, session?.teamId ?? undefined) : null;
  const standing = standingOf(
    { workspace: version.workspace, lead, leadPeople, needs },
    { actor, me: await approverOf(conn, actor) },
    from,
  );
  return { status, standing };
}

/** A review with its position for `actor` (the API's shape: `policy` with `needsYou`, and `standing`). */
export async function withPosition<R extends ReviewView>(
  db: Db,
  review: R,
  actor?: Actor,
): Promise<R & { policy?: ReviewStatus & { needsYou?: boolean }; standing?: Standing }> {
  if (review.kind !== "plan-review") return review;
  const position = await reviewPosition(db, review, actor);
  if (!position) return review;
  const { status, standing } = position;
  return {
    ...review,
    policy: { ...status, ...(standing ? { needsYou: standing.counts } : {}) },
    ...(standing ? { standing } : {}),
  };
}
