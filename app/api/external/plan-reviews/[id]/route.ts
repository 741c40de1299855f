import { getDb } from "@/lib/db/client";
import { awaitExternalReview } from "@/lib/review/await-outcome";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, route } from "@/lib/http/route";
import { awaitExternalReviewQuery } from "../schema";
import { authoriseAgentReview } from "@/lib/auth/authorise";

export const dynamic = "force-dynamic";

/** The review's outcome for the agent's hook, waiting up to `wait` seconds for a decision. */
export const GET = route("submit", async (req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  await authoriseAgentReview(getDb(), actor, "read", id);
  const { wait } = awaitExternalReviewQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  return json(await awaitExternalReview(getDb(), id, wait * 1000, req.signal));
});
