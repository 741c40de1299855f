import { kick } from "@/lib/agent/kick";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, parseBody, route } from "@/lib/http/route";
import { listReviews } from "@/lib/review/read-review";
import { overrideReviewPolicy } from "@/lib/review/override-policy";
import { overrideBody } from "@/lib/review/parse-decision";

export const dynamic = "force-dynamic";

/** POST {reason, mode?}: an owner approves a plan whose review policy cannot be met, with a reason. */
export const POST = route("manage", async (req, ctx: IdParams, actor) => {
  const body = await parseBody(req, overrideBody);
  const [review] = await listReviews(getDb(), { id: await idFrom(ctx) });
  if (!review) throw new AppError("review_not_found");
  if (review.status !== "pending") throw new AppError("already_decided");
  return json({ review: await overrideReviewPolicy(getDb(), actor, review, body, async (id) => kick(getDb(), id)) });
});
