import { getDb } from "@/lib/db/client";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, parseBody, route } from "@/lib/http/route";
import { changeRole, roleBody } from "@/lib/auth/manage-people";

export const dynamic = "force-dynamic";

/** POST /api/people/:id/role {root, role|null}: gives, changes or takes away a role over a root the caller owns. */
export const POST = route("manage", async (req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  const body = await parseBody(req, roleBody);
  return json({ person: await changeRole(getDb(), actor, id, body) });
});
