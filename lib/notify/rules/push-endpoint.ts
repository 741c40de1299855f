// Issue 46: a browser's push endpoint is where the server will POST: it comes from the browser (untrusted input),
// so only the push services browsers use are called, over https, unless the operator names another host.
import { createPublicKey } from "node:crypto";

/** The push services of Chrome and Edge (FCM), Firefox, Windows and Safari. */
const PUSH_SERVICES = ["fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com"];

const known = (host: string) => PUSH_SERVICES.some((s) => host === s || host.endsWith(`.${s}`));

/**
 * The endpoint as the server will call it (its normalised href), or why it is refused. `extra`: PLANGATE_PUSH_HOSTS
 * (host, meaning port 443, or host:port). The host must be plain letters, digits, dots and hyphens: a host another URL
 * parser would read differently (`a;.fcm.googleapis.com`, `%2e`) is refused, never narrowed.
 */
export function checkPushEndpoint(endpoint: string, extra: readonly string[]): { href: string } | { problem: string } {
  if (endpoint.length > 2000 || !URL.canParse(endpoint)) return { problem: "the push endpoint must be a URL" };
  const url = new URL(endpoint);
  if (url.username || url.password) return { problem: "the push endpoint must carry no credentials" };
  if (url.protocol !== "https:") return { problem: "the push endpoint must be https (web push is https only)" };
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(url.hostname) || url.hostname.includes(".."))
    return { problem: "the push endpoint's host must be a plain DNS name" };
  const named = extra.includes(url.host) || (url.port === "" && extra.includes(url.hostname));
  if (named) return { href: url.href };
  if (url.port !== "") return { problem: "the push endpoint must be on the push service's own port" };
  return known(url.hostname)
    ? { href: url.href }
    : { problem: `${url.hostname} is not a browser push service this server calls (PLANGATE_PUSH_HOSTS names others)` };
}

/** Why a push endpoint is refused, or null. */
export function pushEndpointError(endpoint: string, extra: readonly string[]): string | null {
  const checked = checkPushEndpoint(endpoint, extra);
  return "problem" in checked ? checked.problem : null;
}

/** Whether a subscription's p256dh is a P-256 public key (an uncompressed point on the curve) and auth 16 bytes. */
export function pushKeysError(p256dh: string, auth: string): string | null {
  const point = Buffer.from(p256dh, "base64url");
  if (point.length !== 65 || point[0] !== 4) return "the subscription's p256dh is not a P-256 public key";
  try {
    createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: point.subarray(1, 33).toString("base64url"),
        y: point.subarray(33).toString("base64url"),
      },
      format: "jwk",
    });
  } catch {
    return "the subscription's p256dh is not a point on P-256";
  }
  return Buffer.from(auth, "base64url").length === 16 ? null : "the subscription's auth is not 16 bytes";
}
