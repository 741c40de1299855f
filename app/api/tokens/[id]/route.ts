import { revokeTokenAs } from "@/lib/auth/manage-tokens";
import { getDb } from "@/lib/db/client";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const DELETE = route("read", async (_req, ctx: IdParams, actor) =>
  json({ token: await revokeTokenAs(getDb(), actor, await idFrom(ctx)) }),
);
