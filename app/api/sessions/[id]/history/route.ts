import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { sessionHistory } from "@/lib/session/session-history";
import { historyQuery } from "./schema";

export const dynamic = "force-dynamic";

/** A session's History: a page of its plan versions, newest first (`plansNext` leads on), and all the rest. */
export const GET = route("read", async (req, ctx: IdParams, actor) => {
  const { plansLimit, plansAfter } = parseQuery(req, historyQuery);
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const id = await idFrom(ctx);
  await getSession(getDb(), id);
  return json({ history: await sessionHistory(getDb(), id, { plansLimit, plansAfter }) });
});
