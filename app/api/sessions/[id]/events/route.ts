import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { readEvents } from "@/lib/db/session-log/read-events";
import { eventsQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route("read", async (req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const id = await idFrom(ctx);
  const query = parseQuery(req, eventsQuery);
  await getSession(getDb(), id);
  const range =
    query.before === undefined
      ? { after: query.after ?? 0 }
      : { after: Math.max(0, query.before - 1 - query.limit), upto: query.before - 1 };
  return json({ events: await readEvents(getDb(), id, { ...range, limit: query.limit }) });
});
