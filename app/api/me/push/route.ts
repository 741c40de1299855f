import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { addPushDevice } from "@/lib/notify/manage-push";
import { pushSubscriptionBody } from "./schema";

export const dynamic = "force-dynamic";

/** The browser's push subscription for this device ({endpoint, keys: {p256dh, auth}}), for the signed-in person. */
export const POST = route("identified", async (req, _ctx, actor) =>
  json(await addPushDevice(getDb(), actor, await parseBody(req, pushSubscriptionBody, 8_000)), 201),
);
