import { getDb } from "@/lib/db/client";
import { json, parseBody, parseQuery, route } from "@/lib/http/route";
import { listSessions } from "@/lib/session/list-sessions";
import { startSession } from "@/lib/agent/start-session";
import { createSessionBody, listSessionsQuery } from "./schema";
import { authorise } from "@/lib/auth/authorise";

export const dynamic = "force-dynamic";

export const GET = route("read", async (req) => json(await listSessions(getDb(), parseQuery(req, listSessionsQuery))));

export const POST = route("start", async (req, _ctx, actor) => {
  const body = await parseBody(req, createSessionBody);
  return json(await startSession(getDb(), body, (workspace) => authorise(actor, "start", workspace)), 201);
});
