// Issue 46: Web Push through the web-push library: the payload encrypted for the device (aes128gcm), the request
// signed with the server's VAPID key. What reaches the phone says what waits and links to it; it decides nothing.
import "server-only";
import webpush from "web-push";
import type { Env } from "../env";

export function pushConfigured(env: Env): boolean {
  return Boolean(env.PLANGATE_VAPID_PUBLIC_KEY && env.PLANGATE_VAPID_PRIVATE_KEY && env.PLANGATE_VAPID_SUBJECT);
}

export type PushDevice = { endpoint: string; p256dh: string; auth: string };
export type PushPayload = { title: string; body: string; url: string; tag: string };

/** Sends one notification; throws web-push's error (its statusCode says whether the device is gone). */
export async function sendPush(env: Env, device: PushDevice, payload: PushPayload, timeoutMs: number): Promise<void> {
  const { PLANGATE_VAPID_PUBLIC_KEY: publicKey, PLANGATE_VAPID_PRIVATE_KEY: privateKey } = env;
  const subject = env.PLANGATE_VAPID_SUBJECT;
  if (!publicKey || !privateKey || !subject) throw new Error("Web Push is not configured");
  await webpush.sendNotification(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: { subject, publicKey, privateKey },
      TTL: 24 * 3600,
      urgency: "high",
      timeout: timeoutMs,
      contentEncoding: "aes128gcm",
    },
  );
}

/** The device unsubscribed or expired: its push service will never take another message for it. */
export function pushGone(error: unknown): boolean {
  const code = (error as { statusCode?: unknown }).statusCode;
  return code === 404 || code === 410;
}
