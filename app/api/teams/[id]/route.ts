import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getTeam } from "@/lib/team/get-team";

export const dynamic = "force-dynamic";

export const GET = route(async (_req, ctx: IdParams) => json({ team: await getTeam(getDb(), await idFrom(ctx)) }));
