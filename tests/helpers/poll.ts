import type { EventEmitter } from "node:events";

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

/**
 * The one poll helper, for state a test can only ask for again (a server's state over HTTP, a table, a file):
 * calls `fn` until it returns a truthy value, which it returns, or fails naming what it waited for. What a test
 * can await (a stream's event, a process's exit, a request reaching a fake) is awaited instead.
 */
export async function waitFor<T>(
  what: string | (() => string),
  fn: () => T | Promise<T>,
  timeoutMs = 10_000,
  everyMs = 10,
): Promise<Truthy<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > end)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Polls fn (every 100 ms: a request each time) until ok holds for its value; fails naming the last value. */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  let last: T | undefined;
  const held = await waitFor(
    () => `a value that holds; the last was ${JSON.stringify(last)}`,
    async () => {
      last = await fn();
      return ok(last) ? { value: last } : undefined;
    },
    ms,
    100,
  );
  return held.value;
}

/**
 * What a fake server records, awaited: resolves with `list()` once `ready()` holds, checked each time `emitter` emits
 * `event` (never on a timer), or fails after timeoutMs saying what it waited for and what came.
 */
export function whenEmitted<T>(
  emitter: EventEmitter,
  event: string,
  ready: () => boolean,
  list: () => T,
  what: () => string,
  timeoutMs = 15_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!ready()) return;
      cleanup();
      resolve(list());
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`waited ${timeoutMs} ms for ${what()}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      emitter.off(event, check);
    };
    emitter.on(event, check);
    check();
  });
}
