// What the webhook suites share (tests/integration/webhooks*.test.ts): a fast runner and real receivers, each
// stopped after its test with the webhook variables put back, a plan waiting on review, the deliveries route as a
// request reads it, and a session's deliveries once none is pending.
import { afterEach, expect } from "vitest";
import * as deliveriesRoute from "../../app/api/webhooks/deliveries/route";
import type { Db } from "../../lib/db/client";
import { resetEnvCache } from "../../lib/env";
import type { WebhookBody } from "../../lib/webhooks/body";
import { listDeliveries, type DeliveryView } from "../../lib/webhooks/list-deliveries";
import { startWebhooks, type WebhookOptions } from "../../lib/webhooks/runner";
import { awaitReview, startScripted, type Api, type Step } from "./api";
import { exitWith, PLAN_V1 } from "./plan-kit";
import { waitFor } from "./poll";
import { operatorHeaders } from "./server";
import { startReceiver, type Received, type Receiver } from "./webhook-receiver";

export const SECRET = "webhook-test-secret-0123456789";
export const FAST: Partial<WebhookOptions> = { backoffMs: [60, 120, 240, 480], timeoutMs: 3_000, sweepMs: 250 };
const ENV_KEYS = ["PLANGATE_WEBHOOKS", "PLANGATE_WEBHOOK_SECRET", "PLANGATE_WEBHOOK_HOSTS"];

export const bodyOf = (r: Received) => JSON.parse(r.body) as WebhookBody;
export const header = (r: Received, name: string) => r.headers[name.toLowerCase()] as string | undefined;

/** Call at a suite's top level, with the suite's current Api. */
export function webhookKit(apiOf: () => Api) {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
    await (apiOf() as Api | undefined)?.close();
    for (const k of ENV_KEYS) delete process.env[k];
    resetEnvCache();
  });

  function runner(db: Db = apiOf().t.db, opts: Partial<WebhookOptions> = {}) {
    const r = startWebhooks(db, { ...FAST, ...opts });
    cleanup.push(async () => {
      r.stop();
      await r.settled();
    });
    return r;
  }

  async function receiver(statuses: number[] = []): Promise<Receiver> {
    const r = await startReceiver(statuses);
    cleanup.push(() => r.close());
    return r;
  }

  /** A scripted session in plan mode that submits its plan: returns the session and the pending review. */
  async function askReview(script: Step[] = [exitWith(PLAN_V1)]): Promise<{ id: string; reviewId: string }> {
    const api = apiOf();
    const id = await startScripted(api, script, { mode: "plan" });
    expect((await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan a done flag" })).status).toBe(202);
    return { id, reviewId: await awaitReview(api, id) };
  }

  async function deliveriesApi(query: string): Promise<{ status: number; body: { deliveries: DeliveryView[] } }> {
    const res = await deliveriesRoute.GET(
      new Request(`http://127.0.0.1:3000/api/webhooks/deliveries?${query}`, { headers: operatorHeaders() }),
      {},
    );
    return { status: res.status, body: await res.json() };
  }

  /** The deliveries of a session once none is pending any more (at least `count` of them). */
  function finished(sessionId: string, count = 1, timeoutMs = 15_000): Promise<DeliveryView[]> {
    return waitFor(
      `${count} finished deliveries`,
      async () => {
        const list = await listDeliveries(apiOf().t.db, { sessionId });
        return list.length >= count && list.every((d) => d.status !== "pending") ? list : null;
      },
      timeoutMs,
    );
  }

  // `cleanup`: what a test started itself, stopped after it (last first).
  return { cleanup, runner, receiver, askReview, deliveriesApi, finished };
}
