import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Time-ordered ids ("ses_0m3k…") so lists sort by creation without an extra column. */
export function newId(prefix: string, now = Date.now()): string {
  const time = timePart(now);
  const bytes = randomBytes(10);
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 36];
  return `${prefix}_${time}${rand}`;
}

const timePart = (time: number) => time.toString(36).padStart(9, "0");

/** The least id newId(prefix) makes at `time` or later: a range over time-ordered ids is a range of the primary key. */
export function idFloor(prefix: string, time: number): string {
  return `${prefix}_${timePart(time)}`;
}
