import { authoriseTeammate } from "@/lib/auth/authorise";
import { starterOf } from "@/lib/auth/rules/rights";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { kick } from "@/lib/agent/kick";
import { startSession } from "@/lib/agent/start-session";
import { getTeam } from "@/lib/team/get-team";
import { spawnInput, spawnTeammate } from "@/lib/team/spawn-teammate";

export const dynamic = "force-dynamic";

/**
 * One of the lead's people (or an owner) starts a teammate from the UI (the same use case as the spawn_teammate
 * tool); the teammate is theirs, started by them.
 */
export const POST = route("start", async (req, ctx: IdParams, actor) => {
  const team = await getTeam(getDb(), await idFrom(ctx));
  await authoriseTeammate(getDb(), actor, team);
  const body = await parseBody(req, spawnInput);
  const { sessionId } = await spawnTeammate(getDb(), team.leadSessionId, body, {
    drive: async (id) => kick(getDb(), id),
    startSession,
    starter: starterOf(actor),
  });
  return json({ sessionId, team: await getTeam(getDb(), team.id) }, 201);
});
