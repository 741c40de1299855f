// A leaf module (no imports) so the workspace config schema can name the events without depending on lib/webhooks.

/** What a webhook is called on (docs/webhooks.md). The log's review.answered is published as review.decided. */
export const WEBHOOK_EVENTS = ["review.asked", "review.decided", "verification.completed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
