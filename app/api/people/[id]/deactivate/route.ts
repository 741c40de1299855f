import { getDb } from "@/lib/db/client";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, route } from "@/lib/http/route";
import { deactivateAccount } from "@/lib/auth/manage-people";

export const dynamic = "force-dynamic";

/** POST /api/people/:id/deactivate: their sessions and tokens stop at once. */
export const POST = route("manage", async (_req, ctx: IdParams, actor) =>
  json({ person: await deactivateAccount(getDb(), actor, await idFrom(ctx)) }),
);
