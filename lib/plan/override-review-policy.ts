import "server-only";
import { z } from "zod";
import { signerFor } from "../auth/authorise";
import type { Actor } from "../core/people";
import type { Db } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { findSessionOwner } from "../db/sessions";
import { AppError } from "../errors";
import { decidePlanReview } from "./decide-plan-review";
import type { ReviewView } from "./list-reviews";

export const overrideBody = z
  .object({
    reason: z.string().trim().min(3, "say why the policy is overridden").max(2000),
    mode: z.enum(["default", "acceptEdits"]).optional(),
  })
  .strict();

/**
 * The way out of a policy that cannot be met (a reviewer who left, a one-person install with self-approval
 * off): an owner of the session's workspace approves the plan as it stands, with a reason. Recorded in the
 * timeline with the reason and in the audit log as `review.overridden`.
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
  return decidePlanReview(
    db,
    review,
    { decision: "approve", ...(body.mode ? { mode: body.mode } : {}) },
    {
      drive,
      decider: { by: "person", via: "desk", signer },
      override: body.reason,
      alsoWrite: (run) =>
        appendAudit(run, {
          signer,
          kind: "review.overridden",
          sessionId: review.sessionId,
          workspace: owner.workspace,
          subject: review.id,
          detail: { reason: body.reason },
        }),
    },
  );
}
