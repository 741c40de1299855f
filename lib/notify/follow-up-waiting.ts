// Issue 46: an item nobody acted on is brought up again: a reminder to those who can act on it after the policy's
// delay (15 minutes unless the workspace says otherwise), then, if still nobody acted, the workspace's owners.
import "server-only";
import type { Db } from "../db/client";
import { applyNoticeWork, listWaitingNoticed, type NewNotice } from "../db/notify/notices";
import type { Env } from "../env";
import { newId } from "../id";
import { notifyPolicyFor } from "../review/manage-policy";
import { actorsNow, ownerRecipients } from "./list-recipients";
import { type NoticeBody, noticeKey, noticesAbout } from "./owed-notices";
import { dueFollowUp, followUpsDone } from "./rules/notify-policy";

/**
 * A row that records a follow-up step as taken, whoever it reached (perhaps nobody): the item then leaves the
 * sweep's list once nothing more can come, so items that wait long never crowd out newer ones.
 */
function marker(item: { itemId: string; sessionId: string }, kind: "reminder" | "escalation", now: Date): NewNotice {
  return {
    id: newId("ntc", now.getTime()),
    key: noticeKey(item.itemId, "followed-up", "mark", kind),
    itemId: item.itemId,
    sessionId: item.sessionId,
    userId: null,
    channel: "mark",
    kind,
    status: "sent",
    address: "",
    body: "{}",
    attempts: 0,
    nextAttemptAt: null,
    error: null,
    createdAt: now,
    finishedAt: now,
  };
}

/**
 * Makes the reminders and escalations due at `now` (the clock is the caller's: the runner's, or a test's). Each
 * is made once per item and person (the notice's unique key), however many instances sweep. Returns their ids.
 */
export async function followUpWaiting(db: Db, env: Env, now: Date, limit = 100): Promise<string[]> {
  const made: string[] = [];
  for (const item of await listWaitingNoticed(db, limit)) {
    const first = JSON.parse(item.body) as Partial<NoticeBody>;
    if (!first.facts) continue;
    const policy = await notifyPolicyFor(db, first.facts.workspace);
    const sent = new Set(item.sent);
    const step = dueFollowUp({ askedAt: item.askedAt, now, policy, sent });
    if (!step) {
      if (followUpsDone(policy, sent))
        await applyNoticeWork(db, { notices: [marker(item, "escalation", now)], withdraw: [] }, now);
      continue;
    }
    const who =
      step === "reminder"
        ? await actorsNow(db, item.itemId, first.facts.workspace)
        : await ownerRecipients(db, first.facts.workspace);
    if (!who) continue;
    const notices = await noticesAbout(
      db,
      env,
      now,
      who,
      { id: item.itemId, sessionId: item.sessionId, kind: step },
      {
        ...first.facts,
        kind: step,
      },
    );
    await applyNoticeWork(db, { notices: [...notices, marker(item, step, now)], withdraw: [] }, now);
    made.push(...notices.map((n) => n.id));
  }
  return made;
}
