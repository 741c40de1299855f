// Setting a waiting plan review aside when its session leaves plan mode (signed by who did it).
import "server-only";
import { type Actor, may, signerOf } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { findReviewedVersion } from "../db/plans/reviews";
import { AppError } from "../errors";
import { commitDecision } from "./commit-decision";
import { isLeadReview, loadNeeds } from "./load-review";
import { listReviews } from "./read-review";

const SET_ASIDE = "Set aside: plan mode was turned off while the plan waited for review.";

/**
 * Leaving plan mode while its plan waits for review (/plan off, the Plan × chip, the mode control) sets that review
 * aside, signed by who did it (the timeline's "by", the review's decider, the audit log's review.abandoned). Under
 * a review policy, or for a teammate's plan (its lead's to answer), that takes the right to decide plans there: a
 * member may not walk out of a plan that people other than them must approve.
 */
export async function setReviewAside(db: Db, reviewId: string, actor: Actor, workspace: string): Promise<void> {
  const [review] = await listReviews(db, { id: reviewId });
  if (review?.status !== "pending" || review.kind !== "plan-review") return;
  const version = await findReviewedVersion(db, review.id);
  const held = isLeadReview(review) || (version !== undefined && !(await loadNeeds(db, review.id, version)).plain);
  if (held && !may(actor, "decide", workspace))
    throw new AppError(
      "forbidden",
      `This plan waits for review under ${workspace}'s review policy (or its team lead): leaving plan mode would set it aside, which needs the right to decide plans there (reviewer or above).`,
    );
  const signer = signerOf(actor);
  if (!signer) throw new AppError("forbidden", "An agent token may not leave plan mode.");
  // The rights were checked here (leaving plan mode): a setting aside is no reviewer's decision to weigh.
  await commitDecision(
    db,
    review,
    { decision: "abandon", feedback: SET_ASIDE, aside: true },
    { by: "person", via: "desk", actor, signer },
    // Setting a review aside runs nothing: the turn ends with it.
    { drive: async () => undefined },
  );
}
