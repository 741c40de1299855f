import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { resumeTurn } from "@/lib/agent/resume-turn";
import { carriedBy } from "@/lib/auth/rules/mode-rights";

export const dynamic = "force-dynamic";

export const POST = route("chat", async (_req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "chat", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { session } = await getSession(getDb(), id);
  return json(await resumeTurn(getDb(), id, carriedBy(actor, session.workspace)), 202);
});
