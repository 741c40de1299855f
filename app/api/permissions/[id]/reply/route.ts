import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { replyPermission } from "@/lib/agent/reply-permission";
import { replyBody } from "./schema";
import { authorise } from "@/lib/auth/authorise";
import { sessionOfPermission } from "@/lib/agent/reply-permission";

export const dynamic = "force-dynamic";

export const POST = route("answer", async (req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  const body = await parseBody(req, replyBody);
  const owner = await sessionOfPermission(getDb(), id);
  if (owner) authorise(actor, "answer", owner.workspace);
  // Who may give this answer (a held path's reviewers, "once" for a control file) is the gate's, in replyPermission.
  return json({ permission: await replyPermission(getDb(), id, body, actor) });
});
