import type { Db } from "../db/client";
import { onOutboxCommitted } from "../session/outbox";
import { getEnv } from "../env";
import { attemptNotice, dueNotices, type NoticeOptions } from "../notify/deliver-notice";
import { followUpWaiting } from "../notify/follow-up-waiting";
import { notifying } from "../notify/owed-notices";
import { attemptDelivery, dueDeliveries, type DeliveryOptions } from "./deliver";
import { fanOutOutbox } from "./fan-out";

export type WebhookOptions = DeliveryOptions & {
  /** How often the tables are swept for work a commit signal did not bring (other instances, restarts). */
  sweepMs: number;
  /** Issue 46: people's notices, made from the same outbox and sent by the same runner. */
  notices: NoticeOptions;
  /** The clock reminders and escalations are due by (a test's own). */
  now: () => Date;
};

/** 5 attempts: at once, then after 1, 2, 4 and 8 s (notices: after 30 s, 2, 8 and 30 minutes). */
export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  backoffMs: [1000, 2000, 4000, 8000],
  timeoutMs: 10_000,
  sweepMs: 5_000,
  notices: { backoffMs: [30_000, 120_000, 480_000, 1_800_000], timeoutMs: 20_000 },
  now: () => new Date(),
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
  // One runner drains the outbox for every consumer: webhooks and, since issue 46, people's notices.
  const opts: WebhookOptions = { ...DEFAULT_WEBHOOK_OPTIONS, ...options };
  const timers = new Set<NodeJS.Timeout>();
  const inflight = new Set<Promise<void>>();
  let stopped = false;
  let pass: Promise<void> | null = null;
  let again = false;
  let lookForDue = true;

  const later = (at: Date, fn: () => void, from = Date.now()) => {
    // A few ms late on purpose: a timer may fire a millisecond early, before the row counts as due.
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (!stopped) fn();
      },
      Math.max(0, at.getTime() - from) + 5,
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

  const tell = (id: string) => {
    const p = attemptNotice(db, id, opts.notices, opts.now)
      .then((outcome) => {
        if (outcome?.status === "retry" && outcome.nextAttemptAt)
          later(outcome.nextAttemptAt, () => tell(id), opts.now().getTime());
      })
      .catch(log(`notice ${id} failed`));
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };

  const once = async () => {
    const fresh = await fanOutOutbox(db, 100, opts.now);
    // A full batch means more rows wait: go round again now rather than at the next tick.
    if (fresh.more) again = true;
    // What a commit brings is in `fresh`; the due rows it cannot bring (retries owed by a process that died, other
    // instances') are looked up by the periodic sweep, not once more per commit.
    const look = lookForDue;
    lookForDue = false;
    const due = look ? await dueDeliveries(db) : [];
    for (const id of new Set([...fresh.due, ...due])) deliver(id);
    const env = getEnv();
    // Reminders and escalations are looked for by the periodic sweep only, and only while a channel is configured.
    const followed = look && notifying(env) ? await followUpWaiting(db, env, opts.now()) : [];
    const owed = look && notifying(env) ? await dueNotices(db, opts.now()) : [];
    for (const id of new Set([...fresh.notices, ...followed, ...owed])) tell(id);
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
