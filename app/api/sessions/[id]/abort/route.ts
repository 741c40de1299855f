import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { abortTurn } from "@/lib/agent/abort-turn";

export const dynamic = "force-dynamic";

export const POST = route("chat", async (_req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "chat", await idFrom(ctx));
  const id = await idFrom(ctx);
  await getSession(getDb(), id);
  return json(await abortTurn(getDb(), id));
});
