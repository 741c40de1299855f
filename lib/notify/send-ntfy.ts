// Issue 46: ntfy (self-hosted or ntfy.sh): an HTTP publish to the operator's ntfy server, on a topic the person
// chose, with a "view" action that opens the item on the desk. The server is the operator's; only the topic is theirs.
import "server-only";
import type { Env } from "../env";

export function ntfyConfigured(env: Env): boolean {
  return Boolean(env.PLANGATE_NTFY_URL);
}

/** Publishes one message; throws with the HTTP status when ntfy refuses it. */
export async function sendNtfy(
  env: Env,
  topic: string,
  message: { title: string; body: string; url: string },
  timeoutMs: number,
): Promise<void> {
  const base = env.PLANGATE_NTFY_URL;
  if (!base) throw new Error("ntfy is not configured");
  // Header values are one line of Latin-1 at most: the title goes as ntfy's RFC 2047 form when it is not plain ASCII.
  const title = /^[\x20-\x7e]*$/.test(message.title)
    ? message.title
    : `=?UTF-8?B?${Buffer.from(message.title).toString("base64")}?=`;
  const res = await fetch(`${base.replace(/\/+$/, "")}/${encodeURIComponent(topic)}`, {
    method: "POST",
    headers: {
      Title: title,
      Click: message.url,
      Actions: `view, Open on the desk, ${message.url}`,
      Tags: "hourglass_flowing_sand",
      ...(env.PLANGATE_NTFY_TOKEN ? { Authorization: `Bearer ${env.PLANGATE_NTFY_TOKEN}` } : {}),
    },
    body: message.body,
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.body?.cancel().catch(() => undefined);
  if (!res.ok) throw Object.assign(new Error(`ntfy answered HTTP ${res.status}`), { httpStatus: res.status });
}
