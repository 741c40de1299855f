import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { replyPermission } from "@/lib/agent/reply-permission";
import { replyBody } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route(async (req, ctx: IdParams) => {
  const id = await idFrom(ctx);
  const body = await parseBody(req, replyBody);
  return json({ permission: await replyPermission(getDb(), id, body) });
});
