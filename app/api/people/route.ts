import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { peopleFor } from "@/lib/auth/manage-people";

export const dynamic = "force-dynamic";

/** GET /api/people: the people with a role under the roots the caller owns, and those roles. */
export const GET = route("manage", async (_req, _ctx, actor) => json({ people: await peopleFor(getDb(), actor) }));
