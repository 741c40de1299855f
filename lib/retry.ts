/** Exponential backoff: the wait before try `attempt + 1` (attempt counts from 0) grows from baseMs to maxMs. */
export type Backoff = { baseMs: number; maxMs: number };

/**
 * "Full jitter": a random wait between 0 and the exponential bound, so contenders that failed together do not
 * try again together (a write conflict, a provider's rate limit, a database that came back for every listener).
 */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(backoff.maxMs, backoff.baseMs * 2 ** attempt));
}

/** Whether a failure is worth another try: no, yes after the backoff, or yes after a wait it names (retry-after). */
export type RetryVerdict = boolean | { waitMs: number };

export type RetryPolicy = {
  /** Tries in all; Infinity tries until the failure is not worth another or the signal aborts. */
  attempts: number;
  backoff: Backoff;
  retryable: (error: unknown, attempt: number) => RetryVerdict;
  /** What to throw once the tries are used up; the last failure itself by default. */
  exhausted?: (error: unknown) => unknown;
  /** Before each wait, with how many tries have failed; what it throws ends the retries (a wait too long). */
  onRetry?: (wait: { failed: number; delayMs: number; error: unknown }) => void | Promise<void>;
  /** Ends a wait at once (with an AbortError) and stops trying. */
  signal?: AbortSignal;
  random?: () => number;
};

/** Runs fn (given the try's number, from 0) until it succeeds or the policy says stop. The one retry loop. */
export async function retry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (policy.signal?.aborted) throw error;
      const verdict = policy.retryable(error, attempt);
      if (verdict === false) throw error;
      if (attempt >= policy.attempts - 1) throw policy.exhausted ? policy.exhausted(error) : error;
      const delayMs =
        typeof verdict === "object" ? verdict.waitMs : backoffDelay(attempt, policy.backoff, policy.random);
      await policy.onRetry?.({ failed: attempt + 1, delayMs, error });
      await sleep(delayMs, policy.signal);
    }
  }
}

/** A wait that an abort signal ends early with an AbortError. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms <= 0 && !signal?.aborted) return resolve();
    const aborted = () => {
      clearTimeout(timer);
      reject(Object.assign(new Error("The wait for the next attempt was aborted."), { name: "AbortError" }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener("abort", aborted, { once: true });
  });
}
