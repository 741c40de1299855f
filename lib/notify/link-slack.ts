// Issue 46: a person proves a Slack user is theirs: they open, signed in as themselves, the one-time link Slack showed
// that user, and Slack says that user's email is the person's own. From then on that Slack user's buttons decide as
// this person (their roles, their policy). A link someone else pressed for cannot be linked to you.
import "server-only";
import { z } from "zod";
import type { Actor } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { findCodeOwner, spendLinkCode, unlinkSlackOf } from "../db/notify/slack-links";
import { findPerson } from "../db/people/people";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { hashCode } from "./answer-slack";
import { slackClient } from "./send-slack";

export const slackLinkBody = z
  .object({ code: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, "the code from Slack's link") })
  .strict();

function personOf(actor: Actor): string {
  // A token acts for a person but is not them: only the person, signed in, links their own Slack user.
  if (actor.kind !== "person")
    throw new AppError("person_required", "Sign in as yourself to link your Slack account: a token cannot.");
  return actor.userId;
}

const gone = () =>
  new AppError(
    "not_found",
    "That Slack link is used, expired (10 minutes) or was never made: press a button in Slack again.",
  );

/** The Slack user a link's code was made for ("team:user"), to show before the person confirms; null if none. */
export async function describeLinkCode(db: Db, code: string, now = new Date()): Promise<string | null> {
  return slackLinkBody.safeParse({ code }).success ? findCodeOwner(db, hashCode(code), now) : null;
}

/** What Slack says this user's email is (the app's users:read.email scope), or null. */
async function slackEmail(slackUser: string): Promise<string | null> {
  const user = slackUser.split(":")[1] ?? "";
  const info = await slackClient(getEnv()).users.info({ user });
  const email = info.user?.profile?.email;
  return typeof email === "string" && email.includes("@") ? email.toLowerCase() : null;
}

export async function linkSlack(db: Db, actor: Actor, code: string, now = new Date()): Promise<{ slackUser: string }> {
  const userId = personOf(actor);
  const hash = hashCode(code);
  const slackUser = await findCodeOwner(db, hash, now);
  const person = await findPerson(db, { id: userId });
  if (!slackUser || !person) throw gone();
  const email = await slackEmail(slackUser).catch(() => null);
  if (!email)
    throw new AppError(
      "forbidden",
      "Slack did not say whose account this is (the Slack app needs the users:read.email scope): it is not linked.",
    );
  if (email !== person.email.toLowerCase())
    throw new AppError(
      "forbidden",
      "That Slack account's email is not yours: only your own Slack account, from a button you pressed, links to you.",
    );
  if (!(await spendLinkCode(db, hash, userId, now))) throw gone();
  return { slackUser };
}

/** Unlinks the signed-in person's Slack account(s). */
export async function unlinkSlack(db: Db, actor: Actor): Promise<{ unlinked: number }> {
  return { unlinked: await unlinkSlackOf(db, personOf(actor)) };
}
