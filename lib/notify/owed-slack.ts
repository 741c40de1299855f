// Issue 46: where an item's Slack messages go: the channel a workspace's owner chose (one message, mentioning the
// linked people who can act on it), or a direct message to each of them ("dm"). A decision edits what was posted.
import "server-only";
import type { Db } from "../db/client";
import { slackIdsOf } from "../db/notify/slack-links";
import { notifyPolicyFor } from "../review/manage-policy";
import type { Recipient } from "./list-recipients";
import type { NoticeFacts } from "./rules/notice-text";
import { type NoticeKind, type NotifyChoices, DEFAULT_CHOICES, wants } from "./rules/notify-policy";

export type SlackNotice = { to: string; userId: string | null; address: string; name: string; mention: string[] };

/** The address of the notice that edits an item's posted messages once it is decided. */
export const SLACK_UPDATE = "update";

export async function slackNotices(
  db: Db,
  who: readonly Recipient[],
  choices: ReadonlyMap<string, NotifyChoices>,
  kind: NoticeKind,
  facts: NoticeFacts,
): Promise<SlackNotice[]> {
  const { slackChannel } = await notifyPolicyFor(db, facts.workspace);
  if (!slackChannel || kind === "verification") return [];
  // Whatever was posted about the item is edited to say who decided: one notice, whoever was told.
  if (kind === "decided") return [{ to: SLACK_UPDATE, userId: null, address: SLACK_UPDATE, name: "", mention: [] }];
  const ids = await slackIdsOf(
    db,
    who.map((p) => p.userId),
  );
  const linked = who.flatMap((p) => {
    const id = ids.get(p.userId);
    return id && wants(choices.get(p.userId) ?? DEFAULT_CHOICES, "slack", kind) ? [{ person: p, id }] : [];
  });
  if (slackChannel === "dm")
    return linked.map(({ person, id }) => ({
      to: person.userId,
      userId: person.userId,
      address: id,
      name: person.name,
      mention: [],
    }));
  return [
    { to: `channel:${slackChannel}`, userId: null, address: slackChannel, name: "", mention: linked.map((l) => l.id) },
  ];
}
