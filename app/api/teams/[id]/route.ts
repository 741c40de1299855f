import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getTeam } from "@/lib/team/get-team";
import { updateTeam } from "@/lib/team/update-team";
import { updateTeamBody } from "../schema";

export const dynamic = "force-dynamic";

export const GET = route("read", async (_req, ctx: IdParams) =>
  json({ team: await getTeam(getDb(), await idFrom(ctx)) }),
);

export const PATCH = route("start", async (req, ctx: IdParams) => {
  const id = await idFrom(ctx);
  const body = await parseBody(req, updateTeamBody);
  await updateTeam(getDb(), id, body);
  return json({ team: await getTeam(getDb(), id) });
});
