import { removeOwnPasskey } from "@/lib/auth/remove-passkey";
import { getDb } from "@/lib/db/client";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Any signed-in person, whatever their roles: the passkey must be their own (lib/auth/remove-passkey).
export const DELETE = route("identified", async (_req, ctx: IdParams, actor) => {
  await removeOwnPasskey(getDb(), actor, await idFrom(ctx));
  return json({ removed: true });
});
