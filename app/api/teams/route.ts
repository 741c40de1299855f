import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { createTeam } from "@/lib/team/create-team";
import { getTeam } from "@/lib/team/get-team";
import { createTeamBody } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route("start", async (req) => {
  const body = await parseBody(req, createTeamBody);
  const { teamId } = await createTeam(getDb(), body);
  return json({ team: await getTeam(getDb(), teamId) }, 201);
});
