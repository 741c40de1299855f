import type { Db } from "../db/client";
import { onOutboxCommitted } from "../session/outbox";
import { attemptDelivery, dueDeliveries, type DeliveryOptions } from "./deliver";
import { fanOutOutbox } from "./fan-out";

export type WebhookOptions = DeliveryOptions & {
  /** How often the tables are swept for work a commit signal did not bring (other instances, restarts). */
  sweepMs: number;
};

/** 5 attempts: at once, then after 1, 2, 4 and 8 s. */
export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  backoffMs: [1000, 2000, 4000, 8000],
  timeoutMs: 10_000,
  sweepMs: 5_000,
};

export type WebhookRunner = {
  /** Fans out the outbox and sends what is due; concurrent calls share one pass (and ask for another). */
  sweep(): Promise<void>;
  /** Resolves once no sweep and no attempt of this runner is in flight (tests). */
  settled(): Promise<void>;
  stop(): void;
};

const log = (what: string) => (error: unknown) => console.error(`plangate: webhooks: ${what}`, error);

/**
 * Delivers webhooks from this process. Work is found in the database, never only in memory: a commit signal
 * and retry timers make it prompt, and the periodic sweep makes it certain (deliveries this process owed when
 * it died are due rows that the next sweep, here or on another instance, sends).
 */
export function startWebhooks(db: Db, options: Partial<WebhookOptions> = {}): WebhookRunner {
  const opts: WebhookOptions = { ...DEFAULT_WEBHOOK_OPTIONS, ...options };
  const timers = new Set<NodeJS.Timeout>();
  const inflight = new Set<Promise<void>>();
  let stopped = false;
  let pass: Promise<void> | null = null;
  let again = false;
  let lookForDue = true;

  const later = (at: Date, fn: () => void) => {
    // A few ms late on purpose: a timer may fire a millisecond early, before the row counts as due.
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (!stopped) fn();
      },
      Math.max(0, at.getTime() - Date.now()) + 5,
    );
    timer.unref();
    timers.add(timer);
  };

  const deliver = (id: string) => {
    const p = attemptDelivery(db, id, opts)
      .then((outcome) => {
        if (outcome?.status === "retry" && outcome.nextAttemptAt) later(outcome.nextAttemptAt, () => deliver(id));
      })
      .catch(log(`delivery ${id} failed`));
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };

  const once = async () => {
    const fresh = await fanOutOutbox(db);
    // A full batch means more rows wait: go round again now rather than at the next tick.
    if (fresh.more) again = true;
    // What a commit brings is in `fresh`; the due rows it cannot bring (retries owed by a process that died, other
    // instances') are looked up by the periodic sweep, not once more per commit.
    const look = lookForDue;
    lookForDue = false;
    const due = look ? await dueDeliveries(db) : [];
    for (const id of new Set([...fresh.due, ...due])) deliver(id);
  };

  const sweep = (full = true): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (full) lookForDue = true;
    if (pass) {
      again = true;
      return pass;
    }
    pass = (async () => {
      do {
        again = false;
        await once();
      } while (again && !stopped);
    })()
      .catch(log("sweep failed"))
      .finally(() => {
        pass = null;
      });
    return pass;
  };

  const unsubscribe = onOutboxCommitted(() => void sweep(false));
  const interval = setInterval(() => void sweep(), opts.sweepMs);
  interval.unref();
  void sweep();

  return {
    sweep,
    async settled() {
      while (pass || inflight.size > 0) await Promise.allSettled([pass, ...inflight]);
    },
    stop() {
      stopped = true;
      unsubscribe();
      clearInterval(interval);
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

const globalRunner = globalThis as unknown as { plangateWebhooks?: WebhookRunner };

/** The server's one runner (instrumentation.ts); on globalThis so a second bundle's copy does not start another. */
export function startWebhookDeliveries(db: Db): WebhookRunner {
  globalRunner.plangateWebhooks ??= startWebhooks(db);
  return globalRunner.plangateWebhooks;
}
