// An owner's way out of a review policy that cannot be met: approve the plan as it stands, with a reason.
import "server-only";
import type { z } from "zod";
import { signerFor } from "../auth/authorise";
import type { Actor } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { findSessionOwner } from "../db/sessions";
import { AppError } from "../errors";
import { commitDecision } from "./commit-decision";
import type { overrideBody } from "./parse-decision";
import type { ReviewView } from "./review-types";

/**
 * For a policy that cannot be met (a reviewer who left, a one-person install with self-approval off): an owner of the
 * session's workspace approves the plan as it stands. Recorded in the timeline with the reason and in the audit log
 * as `review.overridden`, in the decision's transaction.
 */
export async function overrideReviewPolicy(
  db: Db,
  actor: Actor,
  review: ReviewView,
  body: z.infer<typeof overrideBody>,
  drive: (sessionId: string) => Promise<void>,
): Promise<ReviewView> {
  if (review.kind !== "plan-review") throw new AppError("bad_request", "Only a plan review has a review policy.");
  const owner = await findSessionOwner(db, review.sessionId);
  if (!owner) throw new AppError("review_not_found");
  const signer = signerFor(actor, "manage", owner.workspace);
  if (signer.by !== "person" && signer.by !== "operator") throw new AppError("forbidden");
  const decision = { decision: "approve", ...(body.mode ? { mode: body.mode } : {}), override: body.reason } as const;
  const done = await commitDecision(db, review, decision, { by: "person", via: "desk", actor, signer }, { drive });
  return done.review;
}
