import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { createTeam } from "@/lib/team/create-team";
import { getTeam } from "@/lib/team/get-team";
import { createTeamBody } from "./schema";
import { signerOf } from "@/lib/auth/rules/rights";

export const dynamic = "force-dynamic";

export const POST = route("start", async (req, _ctx, actor) => {
  const body = await parseBody(req, createTeamBody);
  // Without person approval the lead's model approves its teammates' plans: a review policy, an owner's to set.
  // Left out, it is on (the safe side); only an owner turns it off, explicitly, signed.
  await authoriseSession(getDb(), actor, body.personApproval === false ? "manage" : "start", body.sessionId);
  const { teamId } = await createTeam(getDb(), body, signerOf(actor));
  return json({ team: await getTeam(getDb(), teamId) }, 201);
});
