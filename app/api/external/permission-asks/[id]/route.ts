import { getDb } from "@/lib/db/client";
import { awaitExternalAsk } from "@/lib/external/submit-external-ask";
import { idFrom, type IdParams } from "@/lib/http/params";
import { json, route } from "@/lib/http/route";
import { awaitExternalAskQuery } from "../schema";
import { authoriseAgentAsk } from "@/lib/auth/authorise";

export const dynamic = "force-dynamic";

/** The ask's reply for the agent's hook, waiting up to `wait` seconds for a person. */
export const GET = route("submit", async (req, ctx: IdParams, actor) => {
  const id = await idFrom(ctx);
  await authoriseAgentAsk(getDb(), actor, "read", id);
  const { wait } = awaitExternalAskQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  return json(await awaitExternalAsk(getDb(), id, wait * 1000, req.signal));
});
