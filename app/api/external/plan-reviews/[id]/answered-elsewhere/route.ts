import { getDb } from "@/lib/db/client";
import { markAnsweredElsewhere } from "@/lib/external/answered-elsewhere";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, parseBody, route } from "@/lib/http/route";
import { answeredElsewhereBody } from "../../schema";

export const dynamic = "force-dynamic";

/** The agent's own dialog answered first: the review closes as answered there, never left pending. */
export const POST = route("submit", async (req, ctx: IdParams) => {
  const id = await idFrom(ctx);
  const { answer } = await parseBody(req, answeredElsewhereBody);
  return json({ review: await markAnsweredElsewhere(getDb(), id, answer) });
});
