// Issue 46: what one committed event owes people. Taken with the outbox row it came from, in the same transaction
// as the webhooks' deliveries, so each event's notices are made once however many instances sweep.
import "server-only";
import type { Db } from "../db/client";
import type { NewNotice } from "../db/notify/notices";
import { listNoticedPeople } from "../db/notify/notices";
import { choicesOfPeople } from "../db/notify/preferences";
import { findPerson } from "../db/people/people";
import { findSessionOwner, listSessionRowsById } from "../db/sessions";
import { agentLabel, askTitle } from "../desk/views/desk-view";
import type { Env } from "../env";
import { newId } from "../id";
import { reviewPosition, listReviews } from "../review/read-review";
import { isLeadReview } from "../review/load-review";
import type { HeldRule } from "../review/rules/review-policy";
import { isExternalModel } from "../session/external-agents";
import type { SessionEvent } from "../session/log/events";
import { listRequests } from "../session/permission-store";
import { askRecipients, peopleById, type Recipient, reviewRecipients } from "./list-recipients";
import { slackNotices } from "./owed-slack";
import { slackConfigured } from "./send-slack";
import { pushConfigured } from "./send-push";
import { ntfyConfigured } from "./send-ntfy";
import { listPushSubscriptionsOf } from "../db/notify/push-subscriptions";
import type { NoticeFacts } from "./rules/notice-text";
import { DEFAULT_CHOICES, type NoticeKind, wants } from "./rules/notify-policy";

export const emailConfigured = (env: Env) => Boolean(env.PLANGATE_SMTP_URL && env.PLANGATE_SMTP_FROM);

/** Whether any channel is configured: with none, no event is read for notices at all. */
export const notifying = (env: Env) =>
  emailConfigured(env) || slackConfigured(env) || pushConfigured(env) || ntfyConfigured(env);

/**
 * What a Notice row's body holds: the facts its message is written from, fixed when it was made; for Slack, the
 * people it mentions (their Slack ids).
 */
export type NoticeBody = { facts: NoticeFacts; name: string; thread: string; mention?: string[] };

export type NoticeWork = { notices: NewNotice[]; withdraw: string[] };

type SessionFacts = { id: string; title: string; workspace: string; askedBy: string; startedBy: string | null };

async function sessionFacts(db: Db, sessionId: string): Promise<SessionFacts | null> {
  const [[s], owner] = await Promise.all([listSessionRowsById(db, [sessionId]), findSessionOwner(db, sessionId)]);
  if (!s) return null;
  const startedBy = owner?.startedBy ?? null;
  const starter = startedBy ? await findPerson(db, { id: startedBy }) : null;
  const external = isExternalModel(s.model);
  return {
    id: s.id,
    title: s.title,
    workspace: s.workspace,
    askedBy: external ? agentLabel(s.agent, true) : (starter?.name ?? "Plangate"),
    startedBy,
  };
}

/** The notices for these people on each channel they chose for this kind, each made once (its unique key). */
export async function noticesAbout(
  db: Db,
  env: Env,
  now: Date,
  who: readonly Recipient[],
  item: { id: string; sessionId: string; kind: NoticeKind },
  facts: NoticeFacts,
): Promise<NewNotice[]> {
  const choices = await choicesOfPeople(
    db,
    who.map((p) => p.userId),
  );
  const host = new URL(env.publicUrl).hostname || "plangate";
  const thread = `<session-${item.sessionId}@${host}>`;
  const row = (to: string, userId: string | null, channel: string, address: string, body: NoticeBody): NewNotice => ({
    id: newId("ntc", now.getTime()),
    key: noticeKey(item.id, to, channel, item.kind),
    itemId: item.id,
    sessionId: item.sessionId,
    userId,
    channel,
    kind: item.kind,
    status: "pending",
    address,
    body: JSON.stringify(body),
    attempts: 0,
    nextAttemptAt: now,
    error: null,
    createdAt: now,
    finishedAt: null,
  });
  const choiceOf = (userId: string) => choices.get(userId) ?? DEFAULT_CHOICES;
  const email = emailConfigured(env)
    ? who
        .filter((p) => p.email && wants(choiceOf(p.userId), "email", item.kind))
        .map((p) => row(p.userId, p.userId, "email", p.email, { facts, name: p.name, thread }))
    : [];
  // Each device the person turned push on for; the phone shows one notice per item, replaced by the next.
  const pushing = pushConfigured(env) ? who.filter((p) => wants(choiceOf(p.userId), "push", item.kind)) : [];
  const devices = await listPushSubscriptionsOf(
    db,
    pushing.map((p) => p.userId),
  );
  const push = devices.map((d) => row(d.id, d.userId, "push", d.id, { facts, name: "", thread }));
  const ntfy = ntfyConfigured(env)
    ? who.flatMap((p) => {
        const topic = choiceOf(p.userId).ntfyTopic;
        return topic && wants(choiceOf(p.userId), "ntfy", item.kind)
          ? [row(p.userId, p.userId, "ntfy", topic, { facts, name: p.name, thread })]
          : [];
      })
    : [];
  const slack = slackConfigured(env)
    ? (await slackNotices(db, who, choices, item.kind, facts)).map((n) =>
        row(n.to, n.userId, "slack", n.address, { facts, name: n.name, thread, mention: n.mention }),
      )
    : [];
  return [...email, ...slack, ...push, ...ntfy];
}

/** What makes a notice once: its item, its recipient, its channel and its kind. */
export const noticeKey = (itemId: string, to: string, channel: string, kind: NoticeKind) =>
  `${itemId}|${to}|${channel}|${kind}`;

const linkTo = (env: Env, itemId: string) => `${env.publicUrl}/desk?item=${encodeURIComponent(itemId)}`;

/** The notices one committed event owes, and the items whose unsent notices it withdraws. */
export async function owedNotices(
  db: Db,
  env: Env,
  event: SessionEvent,
  sessionId: string,
  now: Date,
): Promise<NoticeWork> {
  const none: NoticeWork = { notices: [], withdraw: [] };
  const session = await sessionFacts(db, sessionId);
  if (!session) return none;
  const base = { title: session.title, workspace: session.workspace, askedBy: session.askedBy };
  const make = (
    who: readonly Recipient[],
    id: string,
    kind: NoticeKind,
    facts: Omit<NoticeFacts, keyof typeof base | "kind">,
  ) => noticesAbout(db, env, now, who, { id, sessionId, kind }, { ...base, ...facts, kind });

  if (event.type === "review.asked") {
    const [review] = await listReviews(db, { id: event.payload.reviewId });
    if (!review || review.status !== "pending") return none;
    const who = await reviewRecipients(db, review, session.workspace);
    const position = review.kind === "plan-review" ? await reviewPosition(db, review) : null;
    const needs = position && !position.status.plain ? position.status.summary : null;
    const itemKind = isLeadReview(review) ? "teammate-plan" : review.kind;
    const facts = { itemKind, needs, decision: null, verification: null, link: linkTo(env, review.id) };
    return { notices: await make(who, review.id, "waiting", facts), withdraw: [] };
  }
  if (event.type === "permission.asked") {
    const [ask] = await listRequests(db, { id: event.payload.requestId });
    if (!ask || ask.status !== "pending") return none;
    const held = Array.isArray(ask.metadata.heldFor) ? (ask.metadata.heldFor as HeldRule[]) : [];
    const who = await askRecipients(db, session.workspace, held);
    const facts = {
      itemKind: "permission",
      needs: askTitle(ask.tool, ask.patterns),
      decision: null,
      verification: null,
      link: linkTo(env, ask.id),
    };
    return { notices: await make(who, ask.id, "waiting", facts), withdraw: [] };
  }
  if (event.type === "review.answered" || event.type === "permission.replied") {
    const id = event.type === "review.answered" ? event.payload.reviewId : event.payload.requestId;
    const word =
      event.type === "review.answered"
        ? event.payload.decision
        : event.payload.reply === "reject"
          ? "reject"
          : "approve";
    // A version replaced by the next: its notices are withdrawn, its Slack messages lose their buttons, and the new
    // version's own notice says the rest.
    if (word === "superseded") {
      const facts = {
        itemKind: "plan-review",
        needs: null,
        decision: { word, by: null },
        verification: null,
        link: linkTo(env, id),
      };
      const edits = (await make([], id, "decided", facts)).filter((n) => n.channel === "slack");
      return { notices: edits, withdraw: [id] };
    }
    const [told, review] = await Promise.all([
      listNoticedPeople(db, id, now),
      event.type === "review.answered" ? listReviews(db, { id }).then(([r]) => r) : undefined,
    ]);
    const itemKind = review ? (isLeadReview(review) ? "teammate-plan" : review.kind) : "permission";
    // The person whose session it is hears of their plan's decision, if they chose to.
    const starter =
      itemKind !== "permission" && review?.kind === "plan-review" && session.startedBy ? [session.startedBy] : [];
    const who = await peopleById(db, [...new Set([...told, ...starter])]);
    const facts = {
      itemKind,
      needs: null,
      decision: { word, by: event.payload.by ?? null },
      verification: null,
      link: linkTo(env, id),
    };
    return { notices: await make(who, id, "decided", facts), withdraw: [id] };
  }
  if (event.type === "verification.completed" && event.payload.status === "fail" && session.startedBy) {
    const who = await peopleById(db, [session.startedBy]);
    const facts = {
      itemKind: "verification",
      needs: null,
      decision: null,
      verification: event.payload.summary.slice(0, 500),
      link: `${env.publicUrl}/sessions/${encodeURIComponent(sessionId)}`,
    };
    return { notices: await make(who, event.payload.verificationId, "verification", facts), withdraw: [] };
  }
  return none;
}
