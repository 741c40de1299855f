import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { kick } from "@/lib/agent/kick";
import { startSession } from "@/lib/agent/start-session";
import { getTeam } from "@/lib/team/get-team";
import { spawnInput, spawnTeammate } from "@/lib/team/spawn-teammate";

export const dynamic = "force-dynamic";

/** The lead's person starts a teammate from the UI (the same use case as the spawn_teammate tool). */
export const POST = route("start", async (req, ctx: IdParams, actor) => {
  const team = await getTeam(getDb(), await idFrom(ctx));
  await authoriseSession(getDb(), actor, "start", team.leadSessionId);
  const body = await parseBody(req, spawnInput);
  const { sessionId } = await spawnTeammate(getDb(), team.leadSessionId, body, {
    drive: async (id) => kick(getDb(), id),
    startSession,
  });
  return json({ sessionId, team: await getTeam(getDb(), team.id) }, 201);
});
