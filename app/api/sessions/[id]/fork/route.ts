import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { forkSession } from "@/lib/plan/fork-session";
import { forkBody } from "./schema";
import { starterOf } from "@/lib/auth/rules/rights";
import { carriedBy } from "@/lib/auth/rules/mode-rights";
import { getSession } from "@/lib/session/get-session";

export const dynamic = "force-dynamic";

export const POST = route("start", async (req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "start", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { atSeq } = await parseBody(req, forkBody);
  const { session } = await getSession(getDb(), id);
  return json(await forkSession(getDb(), id, carriedBy(actor, session.workspace), atSeq, starterOf(actor)), 201);
});
