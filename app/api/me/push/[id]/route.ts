import { getDb } from "@/lib/db/client";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, route } from "@/lib/http/route";
import { removePushDevice } from "@/lib/notify/manage-push";

export const dynamic = "force-dynamic";

/** Stops push to one of the signed-in person's devices. */
export const DELETE = route("identified", async (_req, ctx: IdParams, actor) => {
  await removePushDevice(getDb(), actor, await idFrom(ctx));
  return json({ removed: true });
});
