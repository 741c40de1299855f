import { authoriseFoundSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { eventStream, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { streamSessionEvents } from "@/lib/session/stream-events";

export const dynamic = "force-dynamic";

export const GET = route("read", async (req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  await authoriseFoundSession(getDb(), actor, "read", id);
  const header = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("after") ?? "0";
  const after = Number.parseInt(header, 10);
  return eventStream(streamSessionEvents(getDb(), id, Number.isFinite(after) && after >= 0 ? after : 0, req.signal));
});
