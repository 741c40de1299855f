import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { parseBody } from "@/lib/http/route";
import { kick } from "@/lib/agent/kick";
import { readInbox } from "@/lib/team/read-inbox";
import { getTeam } from "@/lib/team/get-team";
import { findMember, sendMail } from "@/lib/team/send-mail";
import { mailboxQuery } from "./schema";
import { sendMailBody } from "./send-schema";

export const dynamic = "force-dynamic";

/** A member's inbox, pending plan requests first, a page at a time (`next` is the following page's `after`). */
export const GET = route("read", async (req, ctx: IdParams, actor) => {
  const query = parseQuery(req, mailboxQuery);
  const team = await getTeam(getDb(), await idFrom(ctx));
  await authoriseSession(getDb(), actor, "read", team.leadSessionId);
  return json(await readInbox(getDb(), team.id, query));
});

export const POST = route("chat", async (req, ctx: IdParams, actor) => {
  const team = await getTeam(getDb(), await idFrom(ctx));
  await authoriseSession(getDb(), actor, "chat", team.leadSessionId);
  const body = await parseBody(req, sendMailBody);
  const from = await findMember(getDb(), team.id, body.from ?? team.leadSessionId);
  const to = await findMember(getDb(), team.id, body.to);
  const sent = await sendMail(
    getDb(),
    { teamId: team.id, from, to, type: "message", payload: { text: body.text } },
    async (id) => kick(getDb(), id),
  );
  return json({ message: sent }, 201);
});
