import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { listReviews } from "@/lib/agent/answer-review";
import { listReviewsQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (req) => json({ reviews: await listReviews(getDb(), parseQuery(req, listReviewsQuery)) }));
