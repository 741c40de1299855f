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

/** The `notify` field of PUT /api/policies. */
export const notifyPolicySchema = z
  .object({
    remindAfterMinutes: minutes.optional(),
    escalateAfterMinutes: minutes.optional(),
    slackChannel: z
      .string()
      .regex(/^([CG][A-Z0-9]{2,31}|dm)$/, 'a Slack channel id (C…) or "dm"')
      .nullable()
      .optional(),
  })
  .strict()
  .transform((n): NotifyPolicy => ({ ...DEFAULT_NOTIFY, ...n }))
  .refine(
    (n) =>
      n.remindAfterMinutes === null || n.escalateAfterMinutes === null || n.escalateAfterMinutes > n.remindAfterMinutes,
    { message: "escalateAfterMinutes must be later than remindAfterMinutes", path: ["escalateAfterMinutes"] },
  );

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

/** A person's choices; with none saved, email and Slack (once linked) carry every event. */
export type NotifyChoices = { email: boolean; slack: boolean; events: readonly NotifyEvent[] };
export const DEFAULT_CHOICES: NotifyChoices = { email: true, slack: true, events: [...NOTIFY_EVENTS] };

/** The body of PUT /api/me/notifications (Slack left out: as it was). */
export const notifyChoicesSchema = z
  .object({
    email: z.boolean(),
    slack: z.boolean().optional(),
    events: z.array(z.enum(NOTIFY_EVENTS)).max(NOTIFY_EVENTS.length),
  })
  .strict()
  .transform((c) => ({
    email: c.email,
    ...(c.slack === undefined ? {} : { slack: c.slack }),
    events: NOTIFY_EVENTS.filter((e) => c.events.includes(e)),
  }));

/** Whether a person with these choices hears this notice on this channel. */
export function wants(choices: NotifyChoices, channel: "email" | "slack", kind: NoticeKind): boolean {
  return choices[channel] && choices.events.includes(EVENT_OF[kind]);
}
