// Issue 46: a person's devices that take Web Push: added from /account on the device itself, removed there.
import "server-only";
import { z } from "zod";
import type { Actor } from "../auth/rules/rights";
import type { Db } from "../db/client";
import {
  deletePushSubscription,
  findPushByEndpoint,
  insertPushSubscription,
  listPushSubscriptionsOf,
} from "../db/notify/push-subscriptions";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { newId } from "../id";
import { checkPushEndpoint, pushKeysError } from "./rules/push-endpoint";
import { pushConfigured } from "./send-push";

const key = (bytes: number, what: string) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`), `the subscription's ${what} key`);

/** What PushSubscription.toJSON() gives in the browser. */
export const pushSubscriptionBody = z
  .object({
    endpoint: z.string().max(2000),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: key(65, "p256dh"), auth: key(16, "auth") }).strict(),
  })
  .strict();

function personOf(actor: Actor): string {
  if (actor.kind !== "person")
    throw new AppError("person_required", "Only a person signed in on the device turns push on for it.");
  return actor.userId;
}

/** At most this many devices per person: each waiting item is one message to each of them. */
export const MAX_DEVICES = 10;

export async function addPushDevice(db: Db, actor: Actor, body: z.infer<typeof pushSubscriptionBody>) {
  const userId = personOf(actor);
  const env = getEnv();
  if (!pushConfigured(env))
    throw new AppError("not_found", "This server sends no push: its operator has not set PLANGATE_VAPID_*.");
  // The server will POST to this address: only a browser push service (or one the operator named) is taken, and it is
  // kept as the server will call it.
  const checked = checkPushEndpoint(body.endpoint, env.pushHosts);
  if ("problem" in checked) throw new AppError("bad_request", checked.problem);
  const keys = pushKeysError(body.keys.p256dh, body.keys.auth);
  if (keys) throw new AppError("bad_request", keys);
  const existing = await findPushByEndpoint(db, checked.href);
  if (existing?.userId === userId) return { id: existing.id };
  // A device that takes push for someone else stays theirs: nobody takes over another person's notices by its URL.
  if (existing)
    throw new AppError(
      "conflict",
      "This device takes push for another person: they remove it on their /account first.",
    );
  if ((await listPushSubscriptionsOf(db, [userId])).length >= MAX_DEVICES)
    throw new AppError("conflict", `You have ${MAX_DEVICES} devices taking push: remove one on /account first.`);
  const id = newId("psh");
  await insertPushSubscription(db, {
    id,
    userId,
    endpoint: checked.href,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    createdAt: new Date(),
  });
  return { id };
}

export async function removePushDevice(db: Db, actor: Actor, id: string): Promise<void> {
  if (!(await deletePushSubscription(db, personOf(actor), id)))
    throw new AppError("not_found", "You have no device with that id.");
}
