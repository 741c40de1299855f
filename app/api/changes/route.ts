import { may } from "@/lib/auth/rules/rights";
import { getDb } from "@/lib/db/client";
import { eventStream, parseQuery, route } from "@/lib/http/route";
import { changesQuery } from "./schema";
import { streamChanges } from "@/lib/session/stream-changes";

export const dynamic = "force-dynamic";

/** SSE for list pages: which sessions this person may read changed (the desk, home and a team re-render on it). */
export const GET = route("read", async (req, _ctx, actor) => {
  const { since } = parseQuery(req, changesQuery);
  return eventStream(streamChanges(getDb(), (workspace) => may(actor, "read", workspace), req.signal, since));
});
