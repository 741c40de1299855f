import type { PendingRetry } from "./log/fold";

/** Time left as people read it, in whole seconds rounded up: 3.2 s → "4 s", 95 s → "1 min 35 s". */
export function countdownText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s`;
  const rest = s % 60;
  return `${Math.floor(s / 60)} min${rest ? ` ${rest} s` : ""}`;
}

/**
 * The wait for a failed model request's next attempt, at `now` (ms): "The model provider failed (503 Service
 * Unavailable); retrying in 4 s (attempt 2 of 5)", and "retrying now" once the time has come.
 */
export function retryText(retry: PendingRetry, now: number): string {
  const left = Date.parse(retry.retryAt) - now;
  const when = Number.isFinite(left) && left > 0 ? `retrying in ${countdownText(left)}` : "retrying now";
  const reason = retry.reason.trim();
  return `The model provider failed${reason ? ` (${reason})` : ""}; ${when} (attempt ${retry.attempt} of ${retry.of})`;
}
