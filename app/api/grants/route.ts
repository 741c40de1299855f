import { authorise } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { listGrants } from "@/lib/session/grant-store";
import { getSession } from "@/lib/session/get-session";
import { listGrantsQuery } from "./schema";

export const dynamic = "force-dynamic";

/** GET /api/grants?sessionId=… (the rules that apply to a session) or ?workspace=… (every rule saved for it). */
export const GET = route("read", async (req, _ctx, actor) => {
  const query = parseQuery(req, listGrantsQuery);
  const db = getDb();
  if (query.sessionId !== undefined) {
    const { session } = await getSession(db, query.sessionId);
    authorise(actor, "read", session.workspace);
    return json({ grants: await listGrants(db, { sessionId: session.id, workspace: session.workspace }) });
  }
  authorise(actor, "read", query.workspace ?? "");
  return json({ grants: await listGrants(db, { workspace: query.workspace ?? "" }) });
});
