import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { inviteBody, invitePerson } from "@/lib/auth/manage-people";

export const dynamic = "force-dynamic";

/** POST /api/invites {email?, role, root}: a one-time invite link, shown once. */
export const POST = route("manage", async (req, _ctx, actor) => {
  const body = await parseBody(req, inviteBody);
  return json(await invitePerson(getDb(), actor, body, new URL(req.url).origin), 201);
});
