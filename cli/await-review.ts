// An outside agent's plan on the desk, from its hook: submitted, then waited on until a person decides, the
// review is gone, or the hook's own deadline (before the agent's timeout, which would count as approval for some).
import { callServer } from "./client";

/**
 * A long poll's end: its wait and a margin for the answer, and never past the hook's deadline (a server that
 * accepts the connection and never answers would otherwise hold the hook past its agent's timeout, which some
 * agents take as an approval).
 */
function pollSignal(waitSec: number, deadline: number): AbortSignal {
  const left = Number.isFinite(deadline) ? deadline - Date.now() : Number.POSITIVE_INFINITY;
  return AbortSignal.timeout(Math.max(1, Math.min((waitSec + 15) * 1000, left)));
}

/** A second before the next try after a failed request, never past the deadline. */
const pause = (deadline: number) =>
  new Promise((r) => setTimeout(r, Math.max(0, Math.min(1_000, deadline - Date.now()))));

// The last read leaves this long before the deadline, so that its answer is in before it.
const LAST_READ_MS = 200;

type Polling = { reads: number; last: boolean };

/**
 * The next long poll's wait in whole seconds, or null when waiting is over. With under a second left there is one
 * more instant read, just before the deadline (a decision in the last second counts), never a burst of them.
 */
async function nextWait(deadline: number, maxSec: number, p: Polling): Promise<number | null> {
  if (p.last) return null;
  const left = deadline - Date.now();
  if (left >= 1_000) return Math.min(maxSec, Math.floor(left / 1000));
  p.last = true;
  if (left > LAST_READ_MS) await new Promise((r) => setTimeout(r, left - LAST_READ_MS));
  else if (p.reads > 0) return null;
  return 0;
}

export type Outcome = { status: string; plan: string; edited: boolean; mode: string; message: string | null };

export type Submitted = { reviewId: string } | { refused: string } | { unreachable: string };

export async function submitPlan(url: string, body: Record<string, unknown>): Promise<Submitted> {
  const reply = await callServer(url, "POST", "/api/external/plan-reviews", body).catch((e: unknown) => ({
    status: 0,
    body: e instanceof Error ? e.message : String(e),
  }));
  if (reply.status === 201) return { reviewId: (reply.body as { reviewId: string }).reviewId };
  const why =
    (reply.body as { error?: { message?: string } } | null)?.error?.message ?? JSON.stringify(reply.body ?? "");
  if (reply.status === 0 || reply.status >= 500)
    return { unreachable: `Plangate at ${url} could not be reached (${reply.status || why})` };
  return { refused: `Plangate at ${url} refused the plan (${reply.status}): ${why}` };
}

/**
 * The decided outcome; { gone } when the review cannot be read any more; null at the deadline, or once the server
 * has not answered for `unreachableForMs`.
 */
export async function awaitOutcome(
  url: string,
  reviewId: string,
  deadline: number,
  opts: { waitSec?: number; unreachableForMs?: number } = {},
): Promise<Outcome | { gone: string } | null> {
  let failingSince: number | undefined;
  const p: Polling = { reads: 0, last: false };
  for (;;) {
    const wait = await nextWait(deadline, opts.waitSec ?? 25, p);
    if (wait === null) return null;
    p.reads++;
    const reply = await callServer(
      url,
      "GET",
      `/api/external/plan-reviews/${encodeURIComponent(reviewId)}?wait=${wait}`,
      undefined,
      pollSignal(wait, deadline),
    ).catch(() => null);
    if (reply?.status === 200) {
      failingSince = undefined;
      const outcome = reply.body as Outcome;
      if (outcome.status !== "pending") return outcome;
    } else if (reply && reply.status >= 400 && reply.status < 500) {
      return { gone: `the review is gone on Plangate (${reply.status})` };
    } else {
      failingSince ??= Date.now();
      if (Date.now() - failingSince > (opts.unreachableForMs ?? Number.POSITIVE_INFINITY)) return null;
      if (!p.last) await pause(deadline);
    }
  }
}

/** The review's permission ask, waited on the same way: the reply, or null at the deadline or when unreachable. */
export async function askAndWait(
  url: string,
  body: Record<string, unknown>,
  deadline: number,
): Promise<{ status: string; message: string | null } | null> {
  const asked = await callServer(url, "POST", "/api/external/permission-asks", body).catch(() => null);
  if (!asked || (asked.status !== 200 && asked.status !== 201)) return null;
  let reply = asked.body as { status: string; message: string | null; requestId: string | null };
  const p: Polling = { reads: 1, last: false };
  while (reply.status === "pending" && reply.requestId) {
    const wait = await nextWait(deadline, 25, p);
    if (wait === null) break;
    const next = await callServer(
      url,
      "GET",
      `/api/external/permission-asks/${reply.requestId}?wait=${wait}`,
      undefined,
      pollSignal(wait, deadline),
    ).catch(() => null);
    if (next && next.status >= 400) return null;
    if (next) reply = { ...(next.body as typeof reply), requestId: reply.requestId };
    else if (!p.last) await pause(deadline);
  }
  return reply.status === "pending" ? null : reply;
}
