import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getTeam } from "@/lib/team/get-team";
import { updateTeam } from "@/lib/team/update-team";
import { updateTeamBody } from "../schema";
import { signerOf } from "@/lib/auth/rules/rights";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export const GET = route("read", async (_req, ctx: IdParams, actor) => {
  const team = await getTeam(getDb(), await idFrom(ctx));
  await authoriseSession(getDb(), actor, "read", team.leadSessionId);
  return json({ team });
});

export const PATCH = route("start", async (req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  const body = await parseBody(req, updateTeamBody);
  // Who approves teammates' plans (a person, or the lead's model) is a review policy: an owner's to change.
  await authoriseSession(getDb(), actor, "manage", (await getTeam(getDb(), id)).leadSessionId);
  const signer = signerOf(actor);
  if (!signer) throw new AppError("forbidden", "An agent token may not change a team.");
  await updateTeam(getDb(), id, body, signer);
  return json({ team: await getTeam(getDb(), id) });
});
