// Issue 46: one attempt at sending a due notice, by whichever caller wins its claim; retried with backoff, and a
// channel that is down never holds up anything but its own notices.
import "server-only";
import type { Db } from "../db/client";
import { claimNotice, findNotice, listDueNotices, type NoticeRow, recordNoticeAttempt } from "../db/notify/notices";
import { getEnv } from "../env";
import { newId } from "../id";
import { closeEmailTransports } from "./send-email";
import { NotSent, sendNotice } from "./send-notice";
import { actorsNow, ownerRecipients } from "./list-recipients";
import type { NoticeBody } from "./owed-notices";

export type NoticeOptions = {
  /** Waits before the 2nd, 3rd, … attempt; its length + 1 is the number of attempts. */
  backoffMs: readonly number[];
  /** One attempt's limit (connect, greeting and each reply). */
  timeoutMs: number;
};

// A claim outlives the attempt it covers by this much, so another instance sends again only once the claimer is
// surely gone, never while its message may still be accepted.
const LEASE_SLACK_MS = 30_000;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Whether trying again will not help: a channel's own refusal (Slack's "channel_not_found"), or an SMTP server's 5xx
 * reply. Anything else (a 4xx, a dropped connection, a rate limit) may pass later.
 */
function permanent(error: unknown): boolean {
  if (error instanceof NotSent) return error.permanent;
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

const ASKS = new Set(["waiting", "reminder", "escalation"]);

/** Why a waiting item's notice would be stale now, or null. */
async function staleFor(db: Db, row: NoticeRow): Promise<string | null> {
  const workspace = (JSON.parse(row.body) as Partial<NoticeBody>).facts?.workspace ?? "";
  const acting = await actorsNow(db, row.itemId, workspace);
  if (!acting) return "the item was decided first";
  if (!row.userId) return null;
  const who = row.kind === "escalation" ? await ownerRecipients(db, workspace) : acting;
  return who.some((p) => p.userId === row.userId) ? null : "its person can no longer act on the item";
}

/** One attempt; null when this caller did not win the claim (not due, done, or being sent elsewhere). */
export async function attemptNotice(
  db: Db,
  id: string,
  opts: NoticeOptions,
  /** The runner's clock (a test's own): what is due, and when a retry is, go by it. */
  clock: () => Date = () => new Date(),
): Promise<{ status: "sent" | "failed" | "retry"; nextAttemptAt: Date | null } | null> {
  const claim = newId("ntk");
  const now = clock();
  if (!(await claimNotice(db, id, claim, now, new Date(now.getTime() + opts.timeoutMs + LEASE_SLACK_MS)))) return null;
  const row = await findNotice(db, id);
  if (!row) return null;
  const env = getEnv();
  const number = row.attempts + 1;
  // An ask answered while this notice waited (or between its withdrawal and this claim), or a person who can no longer
  // act on it (deactivated, their role or standing changed): it is not sent. Nobody acts on something stale.
  const stale = ASKS.has(row.kind) ? await staleFor(db, row) : null;
  if (stale) {
    await recordNoticeAttempt(db, id, claim, {
      attempts: row.attempts,
      status: "withdrawn",
      nextAttemptAt: null,
      error: stale,
      finishedAt: now,
    });
    return { status: "failed", nextAttemptAt: null };
  }
  let error: unknown = null;
  let ref: string | null = null;
  try {
    ref = (await sendNotice(db, env, row, opts.timeoutMs, now)).ref;
  } catch (e) {
    error = e;
  }
  const wait = opts.backoffMs[number - 1];
  const status = error === null ? "sent" : wait === undefined || permanent(error) ? "failed" : "retry";
  const ended = clock();
  const nextAttemptAt = status === "retry" && wait !== undefined ? new Date(ended.getTime() + wait) : null;
  await recordNoticeAttempt(db, id, claim, {
    attempts: number,
    status: status === "retry" ? "pending" : status,
    nextAttemptAt,
    error: error === null ? null : errorText(error),
    finishedAt: status === "retry" ? null : ended,
    ref,
  });
  return { status, nextAttemptAt };
}

export async function dueNotices(db: Db, now = new Date(), limit = 100): Promise<string[]> {
  return listDueNotices(db, now, limit);
}

export { closeEmailTransports };
