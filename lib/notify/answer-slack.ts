// Issue 46: a button press or dialog from Slack. It decides only when the request is Slack's (signed, recent, never
// seen before) and its Slack user is linked to a Plangate person, and then through the same gate, roles and policy
// as the desk, signed "<name> via Slack". Anyone else is told how to link, and nothing changes.
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { authoriseSession } from "../auth/authorise";
import type { Actor } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { findSlackPerson, markRequestSeen, saveLinkCode } from "../db/notify/slack-links";
import { findPerson, membershipsOf } from "../db/people/people";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { commitDecision, type CommitOptions } from "../review/commit-decision";
import { listReviews, reviewPosition } from "../review/read-review";
import {
  buttonIntent,
  changesDialog,
  checkSlackSignature,
  dialogFeedback,
  SLACK_MAX_AGE_S,
  type SlackPayload,
  slackPayload,
  slackUserKey,
} from "./rules/slack-wire";
import { slackClient, slackConfigured } from "./send-slack";
import type { View } from "@slack/web-api";

const LINK_CODE_TTL_MS = 10 * 60_000;

export type SlackRequest = { body: string; timestamp: string | null; signature: string | null };

export const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");

/** Checks and reads a request from Slack: refused (nothing changed) unless it is signed, recent and new. */
async function verified(db: Db, req: SlackRequest, now: Date): Promise<SlackPayload> {
  const env = getEnv();
  const secret = env.PLANGATE_SLACK_SIGNING_SECRET;
  if (!slackConfigured(env) || !secret) throw new AppError("not_found", "Slack is not configured on this server.");
  const nowS = Math.floor(now.getTime() / 1000);
  const verdict = checkSlackSignature({
    secret,
    timestamp: req.timestamp,
    signature: req.signature,
    body: req.body,
    nowS,
  });
  if (!verdict.ok) throw new AppError("unauthorized", `Not a request from Slack: ${verdict.reason}.`);
  // Within its five minutes a signed request could be sent again by whoever saw it: each is acted on once.
  const until = new Date((Number(req.timestamp) + SLACK_MAX_AGE_S + 60) * 1000);
  if (!(await markRequestSeen(db, `slack:${req.signature}`, until, now)))
    throw new AppError("unauthorized", "This request from Slack was already acted on: a replay is refused.");
  let raw: unknown;
  try {
    raw = JSON.parse(new URLSearchParams(req.body).get("payload") ?? "");
  } catch {
    throw new AppError("bad_request", "The body must be Slack's form field `payload`, holding JSON.");
  }
  const parsed = slackPayload.safeParse(raw);
  if (!parsed.success)
    throw new AppError(
      "bad_request",
      `Not an interaction Plangate sent: ${parsed.error.issues[0]?.message ?? "invalid"}.`,
    );
  return parsed.data;
}

/** The person a Slack user is linked to, as an actor with their roles now; null when unlinked or deactivated. */
async function linkedActor(db: Db, slackUser: string): Promise<Extract<Actor, { kind: "person" }> | null> {
  const userId = await findSlackPerson(db, slackUser);
  const person = userId ? await findPerson(db, { id: userId }) : null;
  if (!person || person.deactivatedAt) return null;
  return { kind: "person", userId: person.id, name: person.name, memberships: await membershipsOf(db, person.id) };
}

type Reply = Record<string, unknown>;

const logSlack = (what: string) => (error: unknown) => {
  console.error(`plangate: slack: ${what} failed`, error instanceof Error ? error.message : error);
  return undefined;
};

/** Answers one interaction; what it returns is the HTTP body Slack reads (a dialog's errors, or nothing). */
export async function answerSlack(db: Db, req: SlackRequest, opts: CommitOptions, now = new Date()): Promise<Reply> {
  const p = await verified(db, req, now);
  const env = getEnv();
  const slackUser = slackUserKey(p);
  const actor = await linkedActor(db, slackUser);
  // What is said back goes through Slack's API: if Slack refuses it (an expired trigger, a channel the bot left), the
  // decision already made stands and Slack still gets its 200; the failure is logged.
  const tell = async (text: string) => {
    if (p.type === "block_actions" && p.channel)
      await slackClient(env)
        .chat.postEphemeral({ channel: p.channel.id, user: p.user.id, text })
        .catch(logSlack("an ephemeral reply"));
  };
  if (p.type === "block_actions") {
    const action = p.actions[0];
    const intent = action ? buttonIntent(action.action_id) : null;
    if (!intent || !action?.value) return {};
    if (!actor) {
      const code = randomBytes(24).toString("base64url");
      await saveLinkCode(db, slackUser, hashCode(code), new Date(now.getTime() + LINK_CODE_TTL_MS));
      await tell(
        `Your Slack account is not linked to a Plangate person yet, so this did nothing. Sign in once through ${env.publicUrl}/account/slack?code=${code} (valid for 10 minutes), then press the button again.`,
      );
      return {};
    }
    const body = intent === "approve" ? ({ decision: "approve" } as const) : null;
    const said = await decide(db, actor, slackUser, action.value, body, opts);
    if (said.text) await tell(said.text);
    if (said.ok && intent === "changes" && p.trigger_id)
      // The pure layer writes Slack's JSON without Slack's types; the fake Slack in the tests checks its shape.
      await slackClient(env).views.open({
        trigger_id: p.trigger_id,
        view: changesDialog(action.value) as unknown as View,
      });
    return {};
  }
  const feedback = dialogFeedback(p);
  if (!feedback) return { response_action: "errors", errors: { feedback: "Say what should change." } };
  if (!actor) return { response_action: "errors", errors: { feedback: "Link your Slack account first." } };
  const said = await decide(db, actor, slackUser, p.view.private_metadata, { decision: "reject", feedback }, opts);
  return said.ok ? {} : { response_action: "errors", errors: { feedback: said.text } };
}

/**
 * The decision through the desk's own path (the right to decide in the session's workspace, then commitDecision's
 * gate, roles and policy); with no decision, only the right is checked (before the dialog opens). `text`: what to
 * tell the person (why not, or what their approval still waits for).
 */
async function decide(
  db: Db,
  actor: Extract<Actor, { kind: "person" }>,
  slackUser: string,
  reviewId: string,
  body: { decision: "approve" } | { decision: "reject"; feedback: string } | null,
  opts: CommitOptions,
): Promise<{ ok: boolean; text: string | null }> {
  const no = (text: string) => ({ ok: false, text });
  try {
    const [review] = await listReviews(db, { id: reviewId });
    if (!review || review.kind !== "plan-review") return no("That plan is no longer on the desk.");
    await authoriseSession(db, actor, "decide", review.sessionId);
    if (review.status !== "pending") return no(`That plan was already decided: ${review.decision ?? review.status}.`);
    if (!body) return { ok: true, text: null };
    const signer = { by: "person" as const, userId: actor.userId, name: actor.name, slackUser };
    const done = await commitDecision(db, review, body, { by: "person", via: "desk", actor, signer }, opts);
    if (done.status === "closed") return { ok: true, text: null };
    const [now] = await listReviews(db, { id: reviewId });
    const position = now ? await reviewPosition(db, now) : null;
    return { ok: true, text: `Your approval is recorded. ${position?.status.line ?? ""}`.trim() };
  } catch (error) {
    if (error instanceof AppError) return no(error.message);
    throw error;
  }
}
