// Issue 46: a person's own notification choices (GET/PUT /api/me/notifications) and their delivery log.
import "server-only";
import type { Actor } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { listNoticesOf } from "../db/notify/notices";
import { choicesOfPeople, saveChoices } from "../db/notify/preferences";
import { findPerson } from "../db/people/people";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { emailConfigured, type NoticeBody } from "./owed-notices";
import { slackConfigured } from "./send-slack";
import { hasSlackLink } from "../db/notify/slack-links";
import { listPushSubscriptionsOf } from "../db/notify/push-subscriptions";
import { pushConfigured } from "./send-push";
import { ntfyConfigured } from "./send-ntfy";
import { noticeSubject } from "./rules/notice-text";
import { type ChoicesChange, DEFAULT_CHOICES, type NotifyChoices } from "./rules/notify-policy";

export type NoticeLogEntry = {
  id: string;
  kind: string;
  channel: string;
  status: string;
  subject: string;
  attempts: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

export type NotificationsView = {
  choices: NotifyChoices;
  /** What the server can send: email only once the operator configured SMTP. */
  channels: {
    email: { available: boolean; address: string };
    slack: { available: boolean; linked: boolean };
    /** `publicKey`: the server's VAPID key, what a device subscribes with; `devices`: those that take push now. */
    push: {
      available: boolean;
      publicKey: string | null;
      devices: { id: string; service: string; createdAt: string }[];
    };
    ntfy: { available: boolean; server: string | null };
  };
  /** The person's latest notices, newest first. */
  log: NoticeLogEntry[];
};

/** Only a person signed in as themselves has choices: a token acts for a person, but does not choose for them. */
function personOf(actor: Actor): string {
  if (actor.kind !== "person")
    throw new AppError("person_required", "Only a person signed in as themselves chooses their notifications.");
  return actor.userId;
}

function subjectOf(body: string): string {
  try {
    return noticeSubject((JSON.parse(body) as NoticeBody).facts);
  } catch {
    return "";
  }
}

export async function readNotifications(db: Db, actor: Actor): Promise<NotificationsView> {
  const userId = personOf(actor);
  const env = getEnv();
  const [choices, person, rows, linked, devices] = await Promise.all([
    choicesOfPeople(db, [userId]),
    findPerson(db, { id: userId }),
    listNoticesOf(db, userId, 20),
    hasSlackLink(db, userId),
    listPushSubscriptionsOf(db, [userId]),
  ]);
  return {
    choices: choices.get(userId) ?? DEFAULT_CHOICES,
    channels: {
      email: { available: emailConfigured(env), address: person?.email ?? "" },
      slack: { available: slackConfigured(env), linked },
      push: {
        available: pushConfigured(env),
        publicKey: env.PLANGATE_VAPID_PUBLIC_KEY ?? null,
        devices: devices.map((d) => ({
          id: d.id,
          service: new URL(d.endpoint).hostname,
          createdAt: new Date(d.createdAt).toISOString(),
        })),
      },
      ntfy: { available: ntfyConfigured(env), server: env.PLANGATE_NTFY_URL ?? null },
    },
    log: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      channel: r.channel,
      status: r.status,
      subject: subjectOf(r.body),
      attempts: r.attempts,
      error: r.error,
      createdAt: new Date(r.createdAt).toISOString(),
      finishedAt: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
    })),
  };
}

export async function setNotifications(db: Db, actor: Actor, choices: ChoicesChange): Promise<NotificationsView> {
  await saveChoices(db, personOf(actor), choices);
  return readNotifications(db, actor);
}
