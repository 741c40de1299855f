import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { stateAt } from "@/lib/session/state-at";
import { stateQuery } from "./schema";

export const dynamic = "force-dynamic";

/** Replay: the state right after event `at`, folded from the log. */
export const GET = route("read", async (req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { at } = parseQuery(req, stateQuery);
  return json({ state: await stateAt(getDb(), id, at) });
});
