import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { inviteBody, invitePerson } from "@/lib/auth/manage-people";
import { pendingInvitesFor } from "@/lib/auth/manage-invites";

export const dynamic = "force-dynamic";

/** POST /api/invites {email?, role, root}: a one-time invite link, shown once. */
export const POST = route("manage", async (req, _ctx, actor) => {
  const body = await parseBody(req, inviteBody);
  return json(await invitePerson(getDb(), actor, body, new URL(req.url).origin), 201);
});

/** GET /api/invites: the pending invites under the roots the caller owns (who, role, root, expiry; never the link). */
export const GET = route("manage", async (_req, _ctx, actor) =>
  json({ invites: await pendingInvitesFor(getDb(), actor) }),
);
