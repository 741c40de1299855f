import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { sessionHistory } from "@/lib/session/session-history";

export const dynamic = "force-dynamic";

export const GET = route("read", async (_req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const id = await idFrom(ctx);
  await getSession(getDb(), id);
  return json({ history: await sessionHistory(getDb(), id) });
});
