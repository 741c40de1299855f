import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { readNotifications, setNotifications } from "@/lib/notify/manage-choices";
import { notificationsBody } from "./schema";

export const dynamic = "force-dynamic";

/** The signed-in person's channels, what each carries, and their latest notices. */
export const GET = route("identified", async (_req, _ctx, actor) => json(await readNotifications(getDb(), actor)));

/** The signed-in person's choices: {email, events}. */
export const PUT = route("identified", async (req, _ctx, actor) =>
  json(await setNotifications(getDb(), actor, await parseBody(req, notificationsBody))),
);
