import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { kick } from "@/lib/agent/kick";
import { answerPlanRequest } from "@/lib/review/answer-mailbox";
import { getTeam } from "@/lib/team/get-team";
import { listMail } from "@/lib/team/mailbox";
import { mailReplyBody } from "./schema";
import { authoriseMailboxAnswer } from "@/lib/auth/authorise";
import { signerOf } from "@/lib/auth/rules/rights";

export const dynamic = "force-dynamic";

const params = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "not a valid id"),
  messageId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "not a valid id"),
});

export const POST = route("decide", async (req, ctx: { params: Promise<{ id: string; messageId: string }> }, actor) => {
  const { id, messageId } = params.parse(await ctx.params);
  const body = await parseBody(req, mailReplyBody);
  const team = await getTeam(getDb(), id);
  await authoriseMailboxAnswer(getDb(), actor, team);
  const signer = signerOf(actor) ?? undefined;
  const [request] = await listMail(getDb(), { id: messageId });
  const { from: _from, ...reply } = body;
  const drive = async (sessionId: string) => kick(getDb(), sessionId);
  return json(
    await answerPlanRequest(getDb(), {
      teamId: team.id,
      responder: body.from ?? team.leadSessionId,
      request,
      reply,
      answerer: { by: "person", actor, ...(signer ? { signer } : {}) },
      drive,
    }),
  );
});
