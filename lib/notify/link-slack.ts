// Issue 46: a person proves a Slack user is theirs by opening, signed in as themselves, the one-time link Slack
// showed that user. From then on that Slack user's buttons decide as this person (their roles, their policy).
import "server-only";
import { z } from "zod";
import type { Actor } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { spendLinkCode } from "../db/notify/slack-links";
import { AppError } from "../errors";
import { hashCode } from "./answer-slack";

export const slackLinkBody = z
  .object({ code: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, "the code from Slack's link") })
  .strict();

export async function linkSlack(db: Db, actor: Actor, code: string, now = new Date()): Promise<{ slackUser: string }> {
  // A token acts for a person but is not them: only the person, signed in, links their own Slack user.
  if (actor.kind !== "person")
    throw new AppError("person_required", "Sign in as yourself to link your Slack account: a token cannot.");
  const slackUser = await spendLinkCode(db, hashCode(code), actor.userId, now);
  if (!slackUser)
    throw new AppError(
      "not_found",
      "That Slack link is used, expired (10 minutes) or was never made: press a button in Slack again.",
    );
  return { slackUser };
}
