import { readableFilter } from "@/lib/auth/rules/rights";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { listReviews } from "@/lib/review/read-review";
import { listReviewsQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route("read", async (req, _ctx, actor) =>
  json({ reviews: await listReviews(getDb(), { ...parseQuery(req, listReviewsQuery), ...readableFilter(actor) }) }),
);
