// Issue 46: what a workspace's policy says about telling people (when to remind, when to escalate) and what each
// person chose to hear. Plain data and plain functions: the routing, the sweep and the routes all read these.
import { z } from "zod";

/** What a person may choose to hear about; an escalation is a reminder's next step and goes with "reminder". */
export const NOTIFY_EVENTS = ["waiting", "reminder", "decided", "verification"] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** One notice's reason: an item started waiting, was not acted on, went to the owners, was decided, failed verifying. */
export type NoticeKind = "waiting" | "reminder" | "escalation" | "decided" | "verification";

export const EVENT_OF: Record<NoticeKind, NotifyEvent> = {
  waiting: "waiting",
  reminder: "reminder",
  escalation: "reminder",
  decided: "decided",
  verification: "verification",
};

/**
 * A workspace's timing (null turns that step off) and where its Slack messages go: a channel's id, "dm" for a direct
 * message to each person who can act, or null for none.
 */
export type NotifyPolicy = {
  remindAfterMinutes: number | null;
  escalateAfterMinutes: number | null;
  slackChannel: string | null;
};

export const DEFAULT_NOTIFY: NotifyPolicy = { remindAfterMinutes: 15, escalateAfterMinutes: 60, slackChannel: null };

const minutes = z.number().int().min(1, "at least 1 minute").max(10_080, "at most a week (10080 minutes)").nullable();

const notifyFields = z
  .object({
    remindAfterMinutes: minutes.optional(),
    escalateAfterMinutes: minutes.optional(),
    slackChannel: z
      .string()
      .regex(/^([CG][A-Z0-9]{2,31}|dm)$/, 'a Slack channel id (C…) or "dm"')
      .nullable()
      .optional(),
  })
  .strict();

const inOrder = (n: NotifyPolicy) =>
  n.remindAfterMinutes === null || n.escalateAfterMinutes === null || n.escalateAfterMinutes > n.remindAfterMinutes;
const ORDER = "escalateAfterMinutes must be later than remindAfterMinutes";

/** The `notify` field of PUT /api/policies: the fields it names; the others stay as they are in force. */
export const notifyChangeSchema = notifyFields;
export type NotifyChange = z.output<typeof notifyFields>;

/** A change applied to the timing in force, or why the result will not do. */
export function applyNotifyChange(now: NotifyPolicy, change: NotifyChange): NotifyPolicy | string {
  const next: NotifyPolicy = {
    remindAfterMinutes: change.remindAfterMinutes === undefined ? now.remindAfterMinutes : change.remindAfterMinutes,
    escalateAfterMinutes:
      change.escalateAfterMinutes === undefined ? now.escalateAfterMinutes : change.escalateAfterMinutes,
    slackChannel: change.slackChannel === undefined ? now.slackChannel : change.slackChannel,
  };
  return inOrder(next) ? next : ORDER;
}

/** A whole stored policy: what is left out is the default. */
export const notifyPolicySchema = notifyFields
  .transform((n): NotifyPolicy => ({ ...DEFAULT_NOTIFY, ...n }))
  .refine(inOrder, { message: ORDER, path: ["escalateAfterMinutes"] });

/** The stored JSON as a policy; anything unreadable (an older or damaged row) reads as the defaults. */
export function notifyPolicyOf(json: string | null | undefined): NotifyPolicy {
  try {
    const parsed = notifyPolicySchema.safeParse(JSON.parse(json || "{}"));
    return parsed.success ? parsed.data : DEFAULT_NOTIFY;
  } catch {
    return DEFAULT_NOTIFY;
  }
}

/**
 * The follow-up a waiting item is owed at `now`, if any: the reminder once its delay has passed, then the
 * escalation once its own has. Each is owed once; a step turned off is skipped.
 */
export function dueFollowUp(input: {
  askedAt: Date;
  now: Date;
  policy: NotifyPolicy;
  sent: ReadonlySet<"reminder" | "escalation">;
}): "reminder" | "escalation" | null {
  const waited = (input.now.getTime() - input.askedAt.getTime()) / 60_000;
  const { remindAfterMinutes: remind, escalateAfterMinutes: escalate } = input.policy;
  if (escalate !== null && waited >= escalate && !input.sent.has("escalation")) return "escalation";
  if (remind !== null && waited >= remind && !input.sent.has("reminder") && !input.sent.has("escalation"))
    return "reminder";
  return null;
}

/** Whether no follow-up can come any more: escalated, or the escalation is off and the reminder sent or off too. */
export function followUpsDone(policy: NotifyPolicy, sent: ReadonlySet<"reminder" | "escalation">): boolean {
  if (sent.has("escalation")) return true;
  return policy.escalateAfterMinutes === null && (sent.has("reminder") || policy.remindAfterMinutes === null);
}

/**
 * A person's choices; with none saved, email, Slack (once linked) and push (on the devices they turned it on for)
 * carry every event. ntfy carries them once they pick a topic.
 */
export type NotifyChoices = {
  email: boolean;
  slack: boolean;
  push: boolean;
  ntfyTopic: string | null;
  events: readonly NotifyEvent[];
};
export const DEFAULT_CHOICES: NotifyChoices = {
  email: true,
  slack: true,
  push: true,
  ntfyTopic: null,
  events: [...NOTIFY_EVENTS],
};

export type NotifyChannel = "email" | "slack" | "push" | "ntfy";

/** The body of PUT /api/me/notifications (a channel left out stays as it was). */
export const notifyChoicesSchema = z
  .object({
    email: z.boolean(),
    slack: z.boolean().optional(),
    push: z.boolean().optional(),
    // Only a topic: the ntfy server is the operator's (PLANGATE_NTFY_URL), never an address a person names.
    ntfyTopic: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "an ntfy topic: 1 to 64 letters, digits, _ or -")
      .nullable()
      .optional(),
    events: z.array(z.enum(NOTIFY_EVENTS)).max(NOTIFY_EVENTS.length),
  })
  .strict()
  .transform((c) => ({
    email: c.email,
    ...(c.slack === undefined ? {} : { slack: c.slack }),
    ...(c.push === undefined ? {} : { push: c.push }),
    ...(c.ntfyTopic === undefined ? {} : { ntfyTopic: c.ntfyTopic }),
    events: NOTIFY_EVENTS.filter((e) => c.events.includes(e)),
  }));

export type ChoicesChange = z.output<typeof notifyChoicesSchema>;

/** Whether a person with these choices hears this notice on this channel. */
export function wants(choices: NotifyChoices, channel: NotifyChannel, kind: NoticeKind): boolean {
  const on = channel === "ntfy" ? choices.ntfyTopic !== null : choices[channel];
  return on && choices.events.includes(EVENT_OF[kind]);
}
