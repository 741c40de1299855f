import { revokeInvite } from "@/lib/auth/manage-invites";
import { getDb } from "@/lib/db/client";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** DELETE /api/invites/:id: revokes a pending invite over a root the caller owns; its link then refuses. */
export const DELETE = route("manage", async (_req, ctx: IdParams, actor) =>
  json({ invite: await revokeInvite(getDb(), actor, await idFrom(ctx)) }),
);
