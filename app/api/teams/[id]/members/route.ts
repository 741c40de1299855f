import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getTeam } from "@/lib/team/get-team";
import { joinOutsideAgent } from "@/lib/team/join-outside-agent";
import { joinTeamBody } from "./schema";

export const dynamic = "force-dynamic";

/** A person adds an outside agent's session to a team: from then on its plans are the lead's to answer. */
export const POST = route("decide", async (req, ctx: IdParams, actor) => {
  const team = await getTeam(getDb(), await idFrom(ctx));
  const body = await parseBody(req, joinTeamBody);
  // Routing someone's plans to a team decides who answers them: the person must decide both there and here.
  await authoriseSession(getDb(), actor, "decide", team.leadSessionId);
  await authoriseSession(getDb(), actor, "decide", body.sessionId);
  await joinOutsideAgent(getDb(), team, body.sessionId);
  return json({ team: await getTeam(getDb(), team.id) });
});
