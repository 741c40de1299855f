import "server-only";
import { type Conn, kysely } from "../client";
import {
  type ChoicesChange,
  DEFAULT_CHOICES,
  NOTIFY_EVENTS,
  type NotifyChoices,
  type NotifyEvent,
} from "../../notify/rules/notify-policy";

/** Home of NotifyPreference (issue 46): each person's channels and events. No row: DEFAULT_CHOICES. */

type Row = {
  email: boolean | number;
  slack: boolean | number;
  push: boolean | number;
  ntfyTopic: string | null;
  events: string;
};

function choicesOf(row: Row): NotifyChoices {
  let events: NotifyEvent[] = [];
  try {
    const parsed: unknown = JSON.parse(row.events);
    if (Array.isArray(parsed)) events = NOTIFY_EVENTS.filter((e) => parsed.includes(e));
  } catch {
    // A damaged row hears nothing rather than everything: the person's last choice may have been fewer events.
  }
  return {
    email: Boolean(row.email),
    slack: Boolean(row.slack),
    push: Boolean(row.push),
    ntfyTopic: row.ntfyTopic,
    events,
  };
}

/** These people's choices, by id; each one without a row has the defaults. */
export async function choicesOfPeople(conn: Conn, userIds: readonly string[]): Promise<Map<string, NotifyChoices>> {
  const out = new Map(userIds.map((id) => [id, DEFAULT_CHOICES]));
  if (userIds.length === 0) return out;
  const rows = await kysely(conn)
    .selectFrom("NotifyPreference")
    .select(["userId", "email", "slack", "push", "ntfyTopic", "events"])
    .where("userId", "in", [...userIds])
    .execute();
  for (const r of rows) out.set(r.userId, choicesOf(r));
  return out;
}

/** Saves a person's choices; a channel left out stays as it was. */
export async function saveChoices(conn: Conn, userId: string, choices: ChoicesChange): Promise<void> {
  const values = { ...choices, events: JSON.stringify(choices.events), updatedAt: new Date() };
  await kysely(conn)
    .insertInto("NotifyPreference")
    .values({ userId, ...values })
    .onConflict((oc) => oc.column("userId").doUpdateSet(values))
    .execute();
}
