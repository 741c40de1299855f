import { getDb } from "@/lib/db/client";
import { json, parseBody, parseQuery, route } from "@/lib/http/route";
import { listSessions } from "@/lib/session/list-sessions";
import { startSession } from "@/lib/agent/start-session";
import { createSessionBody, listSessionsQuery } from "./schema";
import { authorise, authoriseMode } from "@/lib/auth/authorise";
import { readableRoots, starterOf } from "@/lib/auth/rules/rights";

export const dynamic = "force-dynamic";

export const GET = route("read", async (req, _ctx, actor) =>
  json(await listSessions(getDb(), parseQuery(req, listSessionsQuery), readableRoots(actor))),
);

export const POST = route("start", async (req, _ctx, actor) => {
  const body = await parseBody(req, createSessionBody);
  return json(
    await startSession(getDb(), { ...body, starter: starterOf(actor) }, (workspace) => {
      authorise(actor, "start", workspace);
      // A mode that answers asks is a decision made in advance: the starter must be one who may decide there.
      authoriseMode(actor, body.mode, workspace);
    }),
    201,
  );
});
