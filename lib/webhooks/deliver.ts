import type { Db } from "../db/client";
import { claimDelivery, failClaimedDelivery, findDelivery, listDueDeliveries, recordAttempt } from "../db/webhooks";
import { getEnv } from "../env";
import { newId } from "../id";
import { announceTouched } from "../session/log-watch";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signBody } from "./sign";

export type DeliveryOptions = {
  /** Waits before the 2nd, 3rd, … attempt; its length + 1 is the number of attempts. */
  backoffMs: readonly number[];
  /** One attempt's limit (connect, headers and all). */
  timeoutMs: number;
};

export type AttemptOutcome = { status: "delivered" | "failed" | "retry"; nextAttemptAt: Date | null };

type Sent = { startedAt: Date; durationMs: number; statusCode: number | null; error: string | null };

// A claim outlives the attempt it covers by this much: another instance sends again only once the claimer is
// surely gone (stalled or dead), never while its request may still be answered.
const LEASE_SLACK_MS = 30_000;

function errorText(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `timed out after ${timeoutMs} ms`;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause ? `${error.message}: ${cause.code ?? cause.message ?? ""}`.slice(0, 500) : error.message.slice(0, 500);
}

async function send(
  url: string,
  event: string,
  id: string,
  body: string,
  secret: string,
  timeoutMs: number,
): Promise<Sent> {
  const startedAt = new Date();
  const t0 = performance.now();
  const done = (statusCode: number | null, error: string | null): Sent => ({
    startedAt,
    durationMs: Math.round(performance.now() - t0),
    statusCode,
    error,
  });
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Plangate-Webhooks/1",
        [EVENT_HEADER]: event,
        [DELIVERY_HEADER]: id,
        [SIGNATURE_HEADER]: signBody(secret, body),
      },
      body,
      // A redirect is not followed: it could lead an allowed host's hook to any address (SSRF).
      redirect: "manual",
      cache: "no-store",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    return done(res.status, null);
  } catch (error) {
    return done(null, errorText(error, timeoutMs));
  }
}

/** Network errors, 5xx and 429 may pass on a later try; anything else (4xx, an unfollowed 3xx) will not. */
function verdict(sent: Sent): "delivered" | "failed" | "retry" {
  if (sent.statusCode === null) return "retry";
  if (sent.statusCode >= 200 && sent.statusCode < 300) return "delivered";
  return sent.statusCode === 429 || sent.statusCode >= 500 ? "retry" : "failed";
}

/**
 * One attempt of a due delivery, if this caller wins its claim (null otherwise: not due, done, or in flight
 * elsewhere). The attempt and the delivery's new state are written in one transaction, guarded by the claim.
 */
export async function attemptDelivery(db: Db, id: string, opts: DeliveryOptions): Promise<AttemptOutcome | null> {
  const claim = newId("whc");
  const now = new Date();
  if (!(await claimDelivery(db, id, claim, now, new Date(now.getTime() + opts.timeoutMs + LEASE_SLACK_MS))))
    return null;
  const row = await findDelivery(db, id);
  if (!row) return null;
  const secret = getEnv().PLANGATE_WEBHOOK_SECRET;
  if (!secret) {
    // The secret was removed after the delivery was made: nothing unsigned ever leaves, so it ends here, uncalled.
    await failClaimedDelivery(db, id, claim, "PLANGATE_WEBHOOK_SECRET is not set: not sent unsigned", new Date());
    await announceTouched(db, row.sessionId);
    return { status: "failed", nextAttemptAt: null };
  }
  const number = Number(row.attempts) + 1;
  const sent = await send(row.url, row.event, id, row.body, secret, opts.timeoutMs);
  const wait = opts.backoffMs[number - 1];
  let status = verdict(sent);
  if (status === "retry" && wait === undefined) status = "failed";
  const ended = new Date();
  const nextAttemptAt = status === "retry" && wait !== undefined ? new Date(ended.getTime() + wait) : null;
  const error = sent.error ?? (status === "delivered" ? null : `HTTP ${sent.statusCode}`);
  // Guarded by the claim: if it lapsed (this process stalled past the lease) and another sender took over,
  // nothing is written here and that sender's attempt is the one on record.
  await recordAttempt(
    db,
    id,
    claim,
    {
      attempts: number,
      status: status === "retry" ? "pending" : status,
      nextAttemptAt,
      error,
      finishedAt: status === "retry" ? null : ended,
    },
    {
      // Timed when it is written, not when the send began: a listener that missed notifications reads back the
      // attempts written since then by their ids (lib/db/webhooks.ts listSessionsWithDeliveriesSince).
      id: newId("wha", ended.getTime()),
      deliveryId: id,
      number,
      startedAt: sent.startedAt,
      durationMs: sent.durationMs,
      statusCode: sent.statusCode,
      error: sent.error,
    },
  );
  await announceTouched(db, row.sessionId);
  return { status, nextAttemptAt };
}

/** Deliveries whose next attempt is due and that nobody is sending (a restart finds its own left here). */
export async function dueDeliveries(db: Db, now = new Date(), limit = 100): Promise<string[]> {
  return listDueDeliveries(db, now, limit);
}
