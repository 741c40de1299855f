import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { answerQuestion, questionDecisionBody } from "@/lib/agent/answer-review";
import { kick } from "@/lib/agent/kick";
import { listReviews, withPosition } from "@/lib/review/read-review";
import { commitDecision } from "@/lib/review/commit-decision";
import { planDecisionBody } from "@/lib/review/parse-decision";
import { authoriseSession } from "@/lib/auth/authorise";
import { signerOf } from "@/lib/auth/rules/rights";

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
  if (review.kind !== "plan-review")
    return json({ review: await answerQuestion(getDb(), review, await parseBody(req, questionDecisionBody), signer) });
  // Who may decide, and whether an approval counts (a teammate's plan: toward its policy only), is lib/review's.
  const body = await parseBody(req, planDecisionBody);
  const decider = { by: "person", via: "desk", actor, ...(signer ? { signer } : {}) } as const;
  const done = await commitDecision(getDb(), review, body, decider, { drive: async (id) => kick(getDb(), id) });
  return json({ review: await withPosition(getDb(), done.review, actor), recorded: done.status === "recorded" });
});
