import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { answerQuestion, questionDecisionBody } from "@/lib/agent/answer-review";
import { kick } from "@/lib/agent/kick";
import { listReviews } from "@/lib/plan/list-reviews";
import { isLeadReview } from "@/lib/team/get-team";
import { decidePlanReview, planDecisionBody } from "@/lib/plan/decide-plan-review";
import { authoriseSession } from "@/lib/auth/authorise";
import { signerOf } from "@/lib/core/people";
import { withPolicy } from "@/lib/plan/weigh-approval";

export const dynamic = "force-dynamic";

export const POST = route("decide", async (req, ctx: IdParams, actor) => {
  const [review] = await listReviews(getDb(), { id: await idFrom(ctx) });
  if (!review) throw new AppError("review_not_found");
  await authoriseSession(getDb(), actor, review.kind === "plan-review" ? "decide" : "answer", review.sessionId);
  const signer = signerOf(actor) ?? undefined;
  if (review.status !== "pending")
    throw new AppError("already_decided", `That review was already decided: ${review.decision ?? review.status}.`, {
      decision: review.decision,
    });
  // A teammate's plan is its lead's to answer, from the mailbox; under a review policy other reviewers may add
  // their approvals here (they count toward the policy; the lead's answer still releases it).
  const lead = isLeadReview(review);
  if (lead && review.kind !== "plan-review")
    throw new AppError("forbidden", "This is a teammate's plan: only its team lead answers it, from the team mailbox.");
  if (review.kind === "plan-review")
    return json({
      review: await withPolicy(
        getDb(),
        await decidePlanReview(getDb(), review, leadApproval(lead, await parseBody(req, planDecisionBody)), {
          drive: async (id) => kick(getDb(), id),
          decider: { by: "person", via: "desk", ...(signer ? { signer } : {}) },
          recordOnly: lead,
        }),
      ),
    });
  return json({ review: await answerQuestion(getDb(), review, await parseBody(req, questionDecisionBody), signer) });
});

/** On a teammate's plan the session page may only approve (toward the policy): sending back is the lead's. */
function leadApproval<B extends { decision: string }>(lead: boolean, body: B): B {
  if (lead && body.decision !== "approve")
    throw new AppError("forbidden", "This is a teammate's plan: only its team lead answers it, from the team mailbox.");
  return body;
}
