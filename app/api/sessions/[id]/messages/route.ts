import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { getSession } from "@/lib/session/get-session";
import { sendMessage } from "@/lib/agent/send-message";
import { messageBody } from "./schema";

export const dynamic = "force-dynamic";

export const POST = route("chat", async (req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "chat", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { text } = await parseBody(req, messageBody);
  await getSession(getDb(), id);
  return json(await sendMessage(getDb(), id, text, actor), 202);
});
