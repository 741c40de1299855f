import { getDb } from "@/lib/db/client";
import { markAnsweredElsewhere } from "@/lib/review/mark-answered-elsewhere";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, parseBody, route } from "@/lib/http/route";
import { answeredElsewhereBody } from "../../schema";
import { authoriseAgentReview } from "@/lib/auth/authorise";

export const dynamic = "force-dynamic";

/** The agent's own dialog answered first: the review closes as answered there, never left pending. */
export const POST = route("submit", async (req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  await authoriseAgentReview(getDb(), actor, "submit", id);
  const { answer } = await parseBody(req, answeredElsewhereBody);
  return json({ review: await markAnsweredElsewhere(getDb(), id, answer) });
});
