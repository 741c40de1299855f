import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "X-Plangate-Signature";
export const EVENT_HEADER = "X-Plangate-Event";
export const DELIVERY_HEADER = "X-Plangate-Delivery";

/** `sha256=<hex HMAC-SHA256 of the raw body>`: the value of X-Plangate-Signature. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

/** What a receiver does (exported for receivers written in TypeScript and for the tests): constant-time compare. */
export function verifySignature(secret: string, body: string, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
