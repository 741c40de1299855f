import { describe, expect, it } from "vitest";
import { backoffDelay, type RetryPolicy, retry, sleep } from "./retry";

describe("backoffDelay", () => {
  it.each([
    // attempt, random, bound (baseMs 100, maxMs 1,000) → wait
    [0, 1, 100],
    [0, 0.5, 50],
    [1, 1, 200],
    [3, 1, 800],
    [4, 1, 1_000],
    [20, 1, 1_000],
    [4, 0, 0],
    [2, 0.25, 100],
  ])("try %i with random %f waits %i ms", (attempt, random, want) => {
    expect(backoffDelay(attempt, { baseMs: 100, maxMs: 1_000 }, () => random)).toBe(want);
  });
});

/** A function that fails with the given errors in turn, then answers "done"; it records every try's number. */
function failing(errors: unknown[]) {
  const tries: number[] = [];
  const fn = async (attempt: number) => {
    tries.push(attempt);
    if (attempt < errors.length) throw errors[attempt];
    return "done";
  };
  return { fn, tries };
}

const fast = (over: Partial<RetryPolicy>): RetryPolicy => ({
  attempts: 5,
  backoff: { baseMs: 1, maxMs: 2 },
  retryable: () => true,
  ...over,
});

describe("retry", () => {
  it.each([
    ["succeeds after failures worth another try", [new Error("a"), new Error("b")], 5, "done", [0, 1, 2]],
    ["gives up after its tries with the last failure", [1, 2, 3].map((n) => new Error(`e${n}`)), 3, "e3", [0, 1, 2]],
    ["one try is no retry", [new Error("once")], 1, "once", [0]],
  ])("%s", async (_, errors, attempts, want, tries) => {
    const f = failing(errors);
    const out = await retry(f.fn, fast({ attempts })).catch((e: Error) => e.message);
    expect([out, f.tries]).toEqual([want, tries]);
  });

  it("a failure not worth another try is thrown at once, unchanged", async () => {
    const fatal = new Error("fatal");
    const f = failing([new Error("busy"), fatal]);
    const out = await retry(f.fn, fast({ retryable: (e) => e !== fatal })).catch((e) => e);
    expect([out, f.tries]).toEqual([fatal, [0, 1]]);
  });

  it("waits what the failure names, tells onRetry before each wait, and maps the last failure", async () => {
    const waits: [number, number][] = [];
    const f = failing([new Error("429"), new Error("503"), new Error("503")]);
    const out = await retry(
      f.fn,
      fast({
        attempts: 3,
        random: () => 1,
        retryable: (e) => ((e as Error).message === "429" ? { waitMs: 7 } : true),
        onRetry: ({ failed, delayMs }) => void waits.push([failed, delayMs]),
        exhausted: (e) => new Error(`gave up after ${(e as Error).message}`),
      }),
    ).catch((e: Error) => e.message);
    expect([out, waits]).toEqual([
      "gave up after 503",
      [
        [1, 7],
        [2, 2],
      ],
    ]);
  });

  it("what onRetry throws ends the retries", async () => {
    const f = failing([new Error("slow down")]);
    const out = await retry(
      f.fn,
      fast({
        onRetry: () => {
          throw new Error("too long to wait");
        },
      }),
    ).catch((e: Error) => e.message);
    expect([out, f.tries]).toEqual(["too long to wait", [0]]);
  });

  it("an abort ends the wait at once and stops trying", async () => {
    const controller = new AbortController();
    const f = failing([new Error("busy"), new Error("busy")]);
    const pending = retry(f.fn, fast({ backoff: { baseMs: 60_000, maxMs: 60_000 }, signal: controller.signal }));
    await expect.poll(() => f.tries.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(f.tries).toEqual([0]);
  });
});

describe("sleep", () => {
  it("an aborted signal rejects before any wait", async () => {
    await expect(sleep(60_000, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
  });
});
