// Issue 46: an item nobody acted on is brought up again: a reminder to those who can act on it after the policy's
// delay (15 minutes unless the workspace says otherwise), then, if still nobody acted, the workspace's owners.
import "server-only";
import type { Db } from "../db/client";
import { applyNoticeWork, listWaitingNoticed } from "../db/notify/notices";
import type { Env } from "../env";
import { notifyPolicyFor } from "../review/manage-policy";
import { listReviews } from "../review/read-review";
import type { HeldRule } from "../review/rules/review-policy";
import { listRequests } from "../session/permission-store";
import { askRecipients, ownerRecipients, type Recipient, reviewRecipients } from "./list-recipients";
import { type NoticeBody, noticesAbout } from "./owed-notices";
import { dueFollowUp } from "./rules/notify-policy";

/** Who can act on a waiting item now (their standing may have changed since it was first told). */
async function actorsNow(db: Db, itemId: string, workspace: string): Promise<Recipient[] | null> {
  const [review] = await listReviews(db, { id: itemId });
  if (review) return review.status === "pending" ? reviewRecipients(db, review, workspace) : null;
  const [ask] = await listRequests(db, { id: itemId });
  if (!ask || ask.status !== "pending") return null;
  return askRecipients(db, workspace, Array.isArray(ask.metadata.heldFor) ? (ask.metadata.heldFor as HeldRule[]) : []);
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
    const step = dueFollowUp({ askedAt: item.askedAt, now, policy, sent: new Set(item.sent) });
    if (!step) continue;
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
    await applyNoticeWork(db, { notices, withdraw: [] }, now);
    made.push(...notices.map((n) => n.id));
  }
  return made;
}
