// Issue 46: one notice on its channel: an email, a Slack message (posted, or, for a decision, the item's posted
// messages edited to say who decided). Throws what the channel said; returns what the channel calls the message.
import "server-only";
import type { Db } from "../db/client";
import { countInFlight, listSentRefs, type NoticeRow } from "../db/notify/notices";
import type { Env } from "../env";
import type { NoticeBody } from "./owed-notices";
import { SLACK_UPDATE } from "./owed-slack";
import { noticeLines, noticeMessage } from "./rules/notice-text";
import { dropPushSubscription, findPushSubscription } from "../db/notify/push-subscriptions";
import { pushGone, sendPush } from "./send-push";
import { sendNtfy } from "./send-ntfy";
import { slackMessage } from "./rules/slack-wire";
import { sendEmail } from "./send-email";
import { slackClient, slackConfigured, slackRefused } from "./send-slack";

export class NotSent extends Error {
  constructor(
    message: string,
    /** Trying again will not help. */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** An HTTP channel's 4xx (but 429) is its final word on this message; anything else may pass later. */
function refusedWith(error: unknown, field: "statusCode" | "httpStatus"): unknown {
  const status = (error as Record<string, unknown>)[field];
  if (typeof status === "number" && status >= 400 && status < 500 && status !== 429)
    return new NotSent(`${(error as Error).message} (HTTP ${status})`.slice(0, 500), true);
  return error;
}

export async function sendNotice(
  db: Db,
  env: Env,
  row: NoticeRow,
  timeoutMs: number,
  now: Date,
): Promise<{ ref: string | null }> {
  const body = JSON.parse(row.body) as NoticeBody;
  const host = new URL(env.publicUrl).hostname || "plangate";
  if (row.channel === "email") {
    if (!env.PLANGATE_SMTP_URL || !env.PLANGATE_SMTP_FROM) throw new NotSent("email is no longer configured", true);
    const message = noticeMessage(body.facts);
    const messageId = `<${row.id}@${host}>`;
    await sendEmail(
      { url: env.PLANGATE_SMTP_URL, from: env.PLANGATE_SMTP_FROM, timeoutMs },
      { to: { name: body.name, address: row.address }, ...message, messageId, thread: body.thread },
    );
    return { ref: messageId };
  }
  if (row.channel === "push") {
    const device = await findPushSubscription(db, row.address);
    if (!device || device.userId !== row.userId)
      throw new NotSent("the device no longer takes push for them (removed)", true);
    const message = noticeMessage(body.facts);
    const payload = {
      title: message.subject,
      body: noticeLines(body.facts)[0] ?? "",
      url: body.facts.link,
      tag: row.itemId,
    };
    try {
      await sendPush(env, device, payload, timeoutMs);
    } catch (error) {
      if (pushGone(error)) {
        await dropPushSubscription(db, device.id);
        throw new NotSent("the device unsubscribed (its push service answered gone); it was removed", true);
      }
      const refused = refusedWith(error, "statusCode");
      // What a push service said stays in the server's log: the person's own log says only that it did not take it.
      if (refused instanceof NotSent) throw new NotSent("the device's push service refused it", true);
      console.error(`plangate: push to device ${device.id} failed`, error instanceof Error ? error.message : error);
      throw new NotSent("the device's push service could not be reached", false);
    }
    return { ref: null };
  }
  if (row.channel === "ntfy") {
    const message = noticeMessage(body.facts);
    const text = { title: message.subject, body: noticeLines(body.facts)[0] ?? "", url: body.facts.link };
    await sendNtfy(env, row.address, text, timeoutMs).catch((error: unknown) => {
      throw refusedWith(error, "httpStatus");
    });
    return { ref: null };
  }
  if (row.channel !== "slack") throw new NotSent(`no channel named ${row.channel}`, true);
  if (!slackConfigured(env)) throw new NotSent("Slack is no longer configured", true);
  const client = slackClient(env, timeoutMs);
  try {
    if (row.address === SLACK_UPDATE) {
      // A message about the item still going out would be missed (no ref yet): this edit waits for it, retried.
      if ((await countInFlight(db, row.itemId, "slack", now)) > 0)
        throw new NotSent("a message about the item is still going out", false);
      const message = slackMessage(body.facts, row.itemId);
      for (const ref of await listSentRefs(db, row.itemId, "slack")) {
        const [channel = "", ts = ""] = ref.split(" ");
        await client.chat.update({ channel, ts, text: message.text, blocks: message.blocks });
      }
      return { ref: null };
    }
    const message = slackMessage(body.facts, row.itemId, body.mention ?? []);
    const posted = await client.chat.postMessage({ channel: row.address, text: message.text, blocks: message.blocks });
    return { ref: posted.channel && posted.ts ? `${posted.channel} ${posted.ts}` : null };
  } catch (error) {
    if (slackRefused(error)) throw new NotSent((error as Error).message, true);
    throw error;
  }
}
