import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { json, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { listReviews, planDetails, withPosition } from "@/lib/review/read-review";

export const dynamic = "force-dynamic";

export const GET = route("read", async (_req, ctx: IdParams, actor) => {
  const [review] = await listReviews(getDb(), { id: await idFrom(ctx) });
  if (!review) throw new AppError("review_not_found");
  await authoriseSession(getDb(), actor, "read", review.sessionId);
  return json({
    review: await withPosition(getDb(), review, actor),
    plan: review.kind === "plan-review" ? await planDetails(getDb(), review.id) : null,
  });
});
