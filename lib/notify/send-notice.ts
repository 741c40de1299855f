// Issue 46: one notice on its channel: an email, a Slack message (posted, or, for a decision, the item's posted
// messages edited to say who decided). Throws what the channel said; returns what the channel calls the message.
import "server-only";
import type { Db } from "../db/client";
import { countInFlight, listSentRefs, type NoticeRow } from "../db/notify/notices";
import type { Env } from "../env";
import type { NoticeBody } from "./owed-notices";
import { SLACK_UPDATE } from "./owed-slack";
import { noticeMessage } from "./rules/notice-text";
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
