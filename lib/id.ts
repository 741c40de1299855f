import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Time-ordered ids ("ses_0m3k…") so lists sort by creation without an extra column. */
export function newId(prefix: string, now = Date.now()): string {
  const time = now.toString(36).padStart(9, "0");
  const bytes = randomBytes(10);
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 36];
  return `${prefix}_${time}${rand}`;
}
