import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { setSessionMode } from "@/lib/plan/set-session-mode";
import { modeBody } from "./schema";

export const dynamic = "force-dynamic";

// Which modes this person may choose is the mode's own question (lib/auth/rules/mode-rights, in setSessionMode): plan and
// default are a member's, a mode that answers asks a reviewer's. Reading the session is the least it takes.
export const POST = route("read", async (req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { mode } = await parseBody(req, modeBody);
  await getSession(getDb(), id);
  return json(await setSessionMode(getDb(), id, { mode }, "user", actor));
});
