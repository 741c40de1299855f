import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { linkSlack, unlinkSlack } from "@/lib/notify/link-slack";
import { slackLinkBody } from "./schema";

export const dynamic = "force-dynamic";

/** {code}: the signed-in person links the Slack user that was shown this one-time code. */
export const POST = route("identified", async (req, _ctx, actor) =>
  json(await linkSlack(getDb(), actor, (await parseBody(req, slackLinkBody)).code)),
);

/** Unlinks the signed-in person's Slack account: its buttons decide nothing any more. */
export const DELETE = route("identified", async (_req, _ctx, actor) => json(await unlinkSlack(getDb(), actor)));
