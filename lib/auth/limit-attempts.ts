import "server-only";
import { createHash } from "node:crypto";
import { getIP } from "@better-auth/core/utils/ip";
import { tooManyMessage } from "./rules/rate-limit";
import type { Db } from "../db/client";
import { giveBack, type LimitRule, takeAttempt } from "../db/rate-limits";
import { getEnv } from "../env";
import { AppError } from "../errors";

/**
 * Issue 41: credentials are guessed by trying; every way to try is limited, in the database (lib/db/rate-limits.ts)
 * so every instance counts the same attempts. Failed sign-ins per email and per address, failed one-time link uses
 * per address, tokens made per person. A refused attempt is a 429 with Retry-After, whose message says when to try.
 */
export type Limit = { key: string; rule: LimitRule };

/**
 * The client's address as better-auth's own limiter reads it: the one address X-Forwarded-For names (Next sets it
 * from the connection when the client did not; a proxy in front sets it). "unknown" when there is none.
 */
export function addressOf(headers: Headers): string {
  return getIP(headers, {}) ?? "unknown";
}

const rule = (max: number): LimitRule => ({ max, windowMs: getEnv().PLANGATE_LIMIT_WINDOW * 1000 });
// A key holds a digest of the email, not the email: the table would otherwise list whose accounts were tried.
const digest = (s: string) => createHash("sha256").update(s, "utf8").digest("hex").slice(0, 32);

/** A password sign-in: per email (when one was sent) and per address; only failures count. */
export function signInLimits(email: string | null, address: string): Limit[] {
  const env = getEnv();
  return [
    ...(email ? [{ key: `sign-in:email:${digest(email)}`, rule: rule(env.PLANGATE_LIMIT_SIGN_IN) }] : []),
    { key: `sign-in:address:${address}`, rule: rule(env.PLANGATE_LIMIT_ADDRESS) },
  ];
}

/** A one-time link's use: per address; only failures (a wrong or spent secret, a refused form) count. */
export function linkLimits(address: string): Limit[] {
  return [{ key: `link:address:${address}`, rule: rule(getEnv().PLANGATE_LIMIT_LINKS) }];
}

/** Making a token: per person; every token made counts. */
export function tokenLimits(userId: string): Limit[] {
  return [{ key: `token:person:${userId}`, rule: rule(getEnv().PLANGATE_LIMIT_TOKENS) }];
}

/**
 * Runs `attempt` unless one of its limits is spent. `givesBack`: the outcomes that give their counts back (a
 * success, so only failures are limited and a person who signs in every day never meets the limit); without it
 * every attempt counts. A refused attempt gives back what it took too: it did not try anything.
 */
export async function limited<T>(
  db: Db,
  what: string,
  limits: readonly Limit[],
  attempt: () => Promise<T>,
  givesBack?: (outcome: T) => boolean,
): Promise<T> {
  const now = Date.now();
  const taken = [];
  for (const l of limits) taken.push(await takeAttempt(db, l.key, l.rule, now));
  const refused = taken.filter((t) => !t.allowed);
  if (refused.length > 0) {
    for (const l of limits) await giveBack(db, l.key);
    const wait = Math.max(...refused.map((t) => t.retryAfterSeconds));
    throw new AppError("rate_limited", tooManyMessage(what, wait), { retryAfter: wait });
  }
  const outcome = await attempt();
  if (givesBack?.(outcome)) for (const l of limits) await giveBack(db, l.key);
  return outcome;
}

/** A refusal by better-auth's own limiter (429, X-Retry-After), in the registry's shape with Retry-After. */
export function refusedByAuth(res: Response): AppError {
  const wait = Math.max(1, Number(res.headers.get("x-retry-after")) || 60);
  return new AppError("rate_limited", tooManyMessage("requests", wait), { retryAfter: wait });
}
