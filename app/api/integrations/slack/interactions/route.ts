import { kick } from "@/lib/agent/kick";
import { getDb } from "@/lib/db/client";
import { json, openRoute, readBodyText } from "@/lib/http/route";
import { answerSlack } from "@/lib/notify/answer-slack";

export const dynamic = "force-dynamic";

/**
 * Slack's interactivity requests (a button, a dialog). No Plangate credential: Slack's signature is checked instead,
 * and a decision is made only for a Slack user linked to a person, as that person (lib/notify/answer-slack.ts).
 */
export const POST = openRoute(async (req) => {
  const body = await readBodyText(req, 64 * 1024);
  const reply = await answerSlack(
    getDb(),
    { body, timestamp: req.headers.get("x-slack-request-timestamp"), signature: req.headers.get("x-slack-signature") },
    { drive: async (id) => kick(getDb(), id) },
  );
  return json(reply);
});
