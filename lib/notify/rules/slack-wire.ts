// Issue 46: Slack's wire format, as plain functions: the request signature Slack puts on every interaction, the
// interaction payloads Plangate acts on, and the messages it posts. Nothing here reaches the network.
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { escapeHtml, type NoticeFacts, noticeLines, noticeSubject } from "./notice-text";

/** How old a signed request may be before it is refused (Slack's own advice: five minutes). */
export const SLACK_MAX_AGE_S = 300;

/** `v0=` + HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the app's signing secret: Slack's request signature. */
export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

export type SignatureVerdict = { ok: true } | { ok: false; reason: string };

/** Whether a request is Slack's: signed with the secret, and recent (an old one may be a replay). */
export function checkSlackSignature(input: {
  secret: string;
  timestamp: string | null;
  signature: string | null;
  body: string;
  nowS: number;
}): SignatureVerdict {
  const { timestamp, signature } = input;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "no valid X-Slack-Request-Timestamp" };
  if (Math.abs(input.nowS - Number(timestamp)) > SLACK_MAX_AGE_S)
    return { ok: false, reason: "the request is more than five minutes old" };
  if (!signature || !/^v0=[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: "no valid X-Slack-Signature" };
  const want = Buffer.from(slackSignature(input.secret, timestamp, input.body));
  const got = Buffer.from(signature);
  if (want.length !== got.length || !timingSafeEqual(want, got))
    return { ok: false, reason: "the signature does not match" };
  return { ok: true };
}

const slackId = z.string().regex(/^[A-Z0-9]{2,32}$/, "a Slack id");
const action = z.object({ action_id: z.string().max(100), value: z.string().max(200).optional() });

/** A button press on a Plangate message. */
export const blockActionsPayload = z.object({
  type: z.literal("block_actions"),
  user: z.object({ id: slackId, team_id: slackId.optional() }),
  team: z.object({ id: slackId }).nullable().optional(),
  trigger_id: z.string().max(200).optional(),
  response_url: z.string().url().max(2000).optional(),
  channel: z.object({ id: slackId }).optional(),
  actions: z.array(action).min(1).max(5),
});

/** The "Request changes" dialog, submitted. */
export const viewSubmissionPayload = z.object({
  type: z.literal("view_submission"),
  user: z.object({ id: slackId, team_id: slackId.optional() }),
  team: z.object({ id: slackId }).nullable().optional(),
  view: z.object({
    callback_id: z.literal("plangate-changes"),
    private_metadata: z.string().max(200),
    state: z.object({
      values: z.record(
        z.string(),
        z.record(z.string(), z.object({ value: z.string().max(20_000).nullable().optional() })),
      ),
    }),
  }),
});

export const slackPayload = z.discriminatedUnion("type", [blockActionsPayload, viewSubmissionPayload]);
export type SlackPayload = z.infer<typeof slackPayload>;

/** The Slack person behind a payload, as one key: team and user. */
export function slackUserKey(p: {
  user: { id: string; team_id?: string | undefined };
  team?: { id: string } | null | undefined;
}) {
  return `${p.team?.id ?? p.user.team_id ?? "_"}:${p.user.id}`;
}

/** What a button asks: approve, or open the dialog for changes; "open" is a link and asks nothing of the server. */
export function buttonIntent(actionId: string): "approve" | "changes" | null {
  if (actionId === "plangate-approve") return "approve";
  if (actionId === "plangate-changes") return "changes";
  return null;
}

/** The feedback typed in the dialog. */
export function dialogFeedback(p: z.infer<typeof viewSubmissionPayload>): string {
  return Object.values(p.view.state.values)
    .flatMap((block) => Object.values(block).map((v) => v.value ?? ""))
    .join("\n")
    .trim();
}

// Slack's mrkdwn treats &, < and > as markup (links, mentions): every fact is escaped text.
const mrkdwn = (text: string) => text.replace(/[&<>]/g, (c) => escapeHtml(c));

type Block = { type: string } & Record<string, unknown>;

const SECTION_MAX = 2900;
const MAX_MENTIONS = 40;

/**
 * The message about an item: what it is, who asked, what is still needed, the people who can act on it (mentioned
 * by their Slack id when linked), and its buttons. Decided, it keeps its words and loses its buttons.
 */
export function slackMessage(
  f: NoticeFacts,
  itemId: string,
  mention: readonly string[] = [],
): { text: string; blocks: Block[] } {
  // The top-level text is what Slack shows in a notification's preview: escaped like the blocks.
  const text = mrkdwn(noticeSubject(f));
  const lines = noticeLines(f).slice(0, -2).filter(Boolean).map(mrkdwn);
  const named = mention.slice(0, MAX_MENTIONS);
  const more = mention.length > named.length ? ` and ${mention.length - named.length} more` : "";
  const who = named.length ? `\nFor ${named.map((id) => `<@${id}>`).join(", ")}${more}` : "";
  // Slack refuses a section over 3000 characters (a workspace path is an agent's word, up to 4096): cut, never fail.
  const body = `*${text}*\n${lines.join("\n")}`.slice(0, SECTION_MAX - who.length);
  const blocks: Block[] = [{ type: "section", text: { type: "mrkdwn", text: `${body}${who}` } }];
  const open = {
    type: "button",
    action_id: "plangate-open",
    text: { type: "plain_text", text: "Open on the desk" },
    url: f.link,
  };
  const asks = f.kind === "waiting" || f.kind === "reminder" || f.kind === "escalation";
  const approvable = asks && f.itemKind === "plan-review";
  blocks.push({
    type: "actions",
    block_id: "plangate",
    elements: approvable
      ? [
          {
            type: "button",
            action_id: "plangate-approve",
            style: "primary",
            text: { type: "plain_text", text: "Approve" },
            value: itemId,
          },
          {
            type: "button",
            action_id: "plangate-changes",
            text: { type: "plain_text", text: "Request changes" },
            value: itemId,
          },
          open,
        ]
      : [open],
  });
  return { text, blocks };
}

/** The dialog that takes a reviewer's feedback for "Request changes". */
export function changesDialog(itemId: string): Block {
  return {
    type: "modal",
    callback_id: "plangate-changes",
    private_metadata: itemId,
    title: { type: "plain_text", text: "Request changes" },
    submit: { type: "plain_text", text: "Send back" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      {
        type: "section",
        text: { type: "mrkdwn", text: "What should change in the plan? The agent reads it and revises." },
      },
      {
        type: "input",
        block_id: "feedback",
        label: { type: "plain_text", text: "Feedback for the agent" },
        element: { type: "plain_text_input", action_id: "text", multiline: true, min_length: 1, max_length: 4000 },
      },
    ],
  };
}
