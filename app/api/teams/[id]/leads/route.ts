import { getDb } from "@/lib/db/client";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, parseBody, route } from "@/lib/http/route";
import { changeTeamLead, teamLeadBody } from "@/lib/team/manage-team-leads";

export const dynamic = "force-dynamic";

/** POST {email}: an owner adds one of the team's lead people; DELETE {email} takes them off. */
export const POST = route("manage", async (req, ctx: IdParams, actor) => {
  const body = await parseBody(req, teamLeadBody);
  return json({ leads: await changeTeamLead(getDb(), actor, await idFrom(ctx), body, "add") }, 201);
});

export const DELETE = route("manage", async (req, ctx: IdParams, actor) => {
  const body = await parseBody(req, teamLeadBody);
  return json({ leads: await changeTeamLead(getDb(), actor, await idFrom(ctx), body, "remove") });
});
