import { signerFor } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { revokeGrant } from "@/lib/session/grant-store";

export const dynamic = "force-dynamic";

/** DELETE /api/grants/:id revokes a saved "always" rule. */
export const DELETE = route("manage", async (_req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  return json({ revoked: await revokeGrant(getDb(), id, (workspace) => signerFor(actor, "manage", workspace)) });
});
