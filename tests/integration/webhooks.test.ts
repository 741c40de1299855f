import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import {
  awaitReview,
  call,
  settle,
  startScripted,
  testApi,
  trustWorkspaceConfig,
  type Api,
  type Step,
} from "../helpers/api";
import { onPostgres } from "../helpers/db";
import { exitWith, PLAN_V1 } from "../helpers/plan-kit";
import { startReceiver, type Received, type Receiver } from "../helpers/webhook-receiver";
import * as deliveriesRoute from "../../app/api/webhooks/deliveries/route";
import { operatorHeaders } from "../helpers/server";
import { WebhookDeliveries } from "../../components/webhook-deliveries";
import { createDb, type Db } from "../../lib/db/client";
import { resetEnvCache } from "../../lib/env";
import { subscribeAnySession, subscribeEvents, subscribeTouched } from "../../lib/session/bus";
import { watchTouched } from "../../lib/session/log-watch";
import type { WebhookBody } from "../../lib/webhooks/body";
import { listDeliveries, type DeliveryView } from "../../lib/webhooks/list-deliveries";
import { startWebhooks, type WebhookOptions } from "../../lib/webhooks/runner";
import { verifySignature } from "../../lib/webhooks/sign";
import { waitFor } from "../helpers/poll";

const SECRET = "webhook-test-secret-0123456789";
const FAST: WebhookOptions = { backoffMs: [60, 120, 240, 480], timeoutMs: 3_000, sweepMs: 250 };
const ENV_KEYS = ["PLANGATE_WEBHOOKS", "PLANGATE_WEBHOOK_SECRET", "PLANGATE_WEBHOOK_HOSTS"];

let api: Api;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
  await api?.close();
  for (const k of ENV_KEYS) delete process.env[k];
  resetEnvCache();
});

function runner(db: Db = api.t.db, opts: Partial<WebhookOptions> = {}) {
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
      const list = await listDeliveries(api.t.db, { sessionId });
      return list.length >= count && list.every((d) => d.status !== "pending") ? list : null;
    },
    timeoutMs,
  );
}

const bodyOf = (r: Received) => JSON.parse(r.body) as WebhookBody;
const header = (r: Received, name: string) => r.headers[name.toLowerCase()] as string | undefined;

describe("webhooks on plan events (real database, real HTTP receiver)", () => {
  it("a receiver that answers 503 twice then 200 gets three signed, identical attempts with backoff; the log and the API show them", async () => {
    const hook = await receiver([503, 503]);
    api = testApi({ env: { PLANGATE_WEBHOOKS: hook.url(), PLANGATE_WEBHOOK_SECRET: SECRET } });
    runner();
    const { id, reviewId } = await askReview();

    const [delivery] = await finished(id);
    expect(delivery).toMatchObject({ status: "delivered", event: "review.asked", source: "server", url: hook.url() });
    expect(delivery!.attempts.map((a) => [a.number, a.statusCode])).toEqual([
      [1, 503],
      [2, 503],
      [3, 200],
    ]);
    expect(hook.received).toHaveLength(3);
    // Every attempt sends the same bytes under the same delivery id, so a receiver can dedupe.
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
    for (const r of hook.received) {
      expect(verifySignature(SECRET, r.body, header(r, "X-Plangate-Signature"))).toBe(true);
      expect([header(r, "X-Plangate-Event"), header(r, "X-Plangate-Delivery"), header(r, "content-type")]).toEqual([
        "review.asked",
        delivery!.id,
        "application/json",
      ]);
    }
    expect(
      verifySignature(
        "another-secret-0123456789",
        hook.received[0]!.body,
        header(hook.received[0]!, "X-Plangate-Signature"),
      ),
    ).toBe(false);
    expect(bodyOf(hook.received[0]!)).toMatchObject({
      deliveryId: delivery!.id,
      type: "review.asked",
      session: { id, workspace: api.workspace, agent: "build" },
      review: { id: reviewId, kind: "plan-review", status: "pending", decision: null, feedback: null, planVersion: 1 },
      verification: null,
    });
    // The schedule: the second attempt waits at least 60 ms after the first, the third at least 120 ms.
    const [t1, t2, t3] = hook.received.map((r) => r.at);
    expect(t2! - t1!).toBeGreaterThanOrEqual(60);
    expect(t3! - t2!).toBeGreaterThanOrEqual(120);

    const res = await deliveriesApi(`sessionId=${id}`);
    expect(res.status).toBe(200);
    const [listed] = res.body.deliveries;
    expect(listed).toMatchObject({
      id: delivery!.id,
      status: "delivered",
      event: "review.asked",
      attempts: [{ statusCode: 503 }, { statusCode: 503 }, { statusCode: 200, error: null }],
    });
    for (const a of listed!.attempts)
      expect([typeof a.durationMs, Number.isNaN(Date.parse(a.startedAt))]).toEqual(["number", false]);
    expect(listed!.finishedAt).not.toBeNull();
    expect((await deliveriesApi("status=delivered")).body.deliveries.map((d) => d.id)).toEqual([delivery!.id]);
    expect((await deliveriesApi("status=bogus")).status).toBe(400);
    expect((await deliveriesApi("limit=0")).status).toBe(400);
    expect((await deliveriesApi("sessionId=ses_nobody")).status).toBe(404);

    // The delivery log as the page renders it: one delivery, its three attempts and its outcome.
    const html = renderToStaticMarkup(createElement(WebhookDeliveries, { deliveries: res.body.deliveries }));
    expect(html.match(/data-testid="webhook-attempt"/g)).toHaveLength(3);
    expect(html).toContain('data-testid="webhook-delivery" data-status="delivered" data-event="review.asked"');
    expect(html).toContain("HTTP 503");
  });

  it("each delivery made or attempted tells the pages that show deliveries, and only them (the webhooks page is pushed, not polled)", async () => {
    const hook = await receiver([503]);
    api = testApi({ env: { PLANGATE_WEBHOOK_SECRET: SECRET, PLANGATE_WEBHOOKS: hook.url() } });
    // What a page showing deliveries hears for the session (this process's bus on SQLite, every instance's NOTIFY on
    // PostgreSQL), and what a page listing sessions (the desk, home) hears beside the session's own log events.
    let touched = 0;
    let listed = 0;
    let published = 0;
    let id = "";
    const count = (sessionId: string) => {
      if (sessionId === id) touched += 1;
    };
    cleanup.push(subscribeTouched(count), watchTouched(api.t.db, count));
    cleanup.push(
      subscribeAnySession((sessionId) => {
        if (sessionId === id) listed += 1;
      }),
    );
    id = await startScripted(api, [exitWith(PLAN_V1)], { mode: "plan" });
    cleanup.push(subscribeEvents(id, () => (published += 1)));
    const r = runner();
    expect((await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan a done flag" })).status).toBe(202);
    await awaitReview(api, id);
    const [delivery] = await finished(id);
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
    // Made once, attempted twice: three signals; and no more once the runner is idle.
    await waitFor("three delivery signals", async () => (touched === 3 ? true : null), 5_000);
    await r.settled();
    expect(touched).toBe(3);
    // The attack on a desk's CPU: every attempt re-rendered every list page. Pages listing sessions hear the
    // session's log events and nothing more.
    expect(listed).toBe(published);
  });

  it("a rejection, an approval and the verification after it each produce their event, with decision, feedback and summary", async () => {
    const hook = await receiver();
    api = testApi({ env: { PLANGATE_WEBHOOKS: hook.url(), PLANGATE_WEBHOOK_SECRET: SECRET } });
    runner();
    const plan = "# Plan: done flag\n\n1. Add a done flag in src/todo.ts\n";
    const work = call("write", {
      path: "src/todo.ts",
      content: "export const todos = [];\nexport const done = true;\n",
    });
    const { id, reviewId: first } = await askReview([exitWith(PLAN_V1), exitWith(plan), work, { text: "finished" }]);
    expect(
      (await api.call("POST", `/api/reviews/${first}/decision`, { decision: "reject", feedback: "Name the file." }))
        .status,
    ).toBe(200);
    const second = await awaitReview(api, id);
    expect(
      (await api.call("POST", `/api/reviews/${second}/decision`, { decision: "approve", mode: "acceptEdits" })).status,
    ).toBe(200);
    const verification = await waitFor(
      "the verification",
      async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
      30_000,
    );

    await finished(id, 5, 30_000);
    const bodies = hook.received.map(bodyOf);
    const decided = bodies.filter((b) => b.type === "review.decided");
    expect(decided.map((b) => b.review)).toEqual([
      {
        id: first,
        kind: "plan-review",
        status: "rejected",
        decision: "reject",
        feedback: "Name the file.",
        planVersion: 1,
        decidedBy: "user",
        needs: null,
      },
      {
        id: second,
        kind: "plan-review",
        status: "approved",
        decision: "approve",
        feedback: null,
        planVersion: 2,
        decidedBy: "user",
        needs: null,
      },
    ]);
    const verified = bodies.filter((b) => b.type === "verification.completed");
    expect(verified).toHaveLength(1);
    expect(verified[0]!.verification).toEqual({
      id: verification.id,
      planVersion: 2,
      status: verification.report.status,
      method: "deterministic",
      summary: verification.report.summary,
    });
    expect(bodies.filter((b) => b.type === "review.asked").map((b) => b.review?.id)).toEqual([first, second]);
    for (const r of hook.received)
      expect(verifySignature(SECRET, r.body, header(r, "X-Plangate-Signature"))).toBe(true);
    expect(new Set(bodies.map((b) => b.deliveryId)).size).toBe(5);
  });

  it("a workspace's hooks reach only hosts the server allows: the others are logged as refused and never called", async () => {
    const allowed = await receiver();
    const forbidden = await receiver();
    const config = {
      webhooks: [
        { url: forbidden.url("/internal") },
        { url: allowed.url("/ws"), events: ["review.asked"] },
        { url: "http://169.254.169.254/latest/meta-data/" },
      ],
    };
    api = testApi({
      files: {
        "README.md": "# Demo\n",
        "src/todo.ts": "export const todos = [];\n",
        ".plangate/config.json": JSON.stringify(config),
      },
      env: { PLANGATE_WEBHOOK_SECRET: SECRET, PLANGATE_WEBHOOK_HOSTS: `127.0.0.1:${allowed.port}` },
    });
    await trustWorkspaceConfig(api, api.workspace);
    runner();
    const { id, reviewId } = await askReview();

    const asked = await finished(id, 3);
    const byUrl = new Map(asked.map((d) => [d.url, d]));
    expect(byUrl.get(allowed.url("/ws"))).toMatchObject({ status: "delivered", source: "workspace" });
    for (const url of [forbidden.url("/internal"), "http://169.254.169.254/latest/meta-data/"]) {
      expect(byUrl.get(url)).toMatchObject({ status: "refused", source: "workspace", attempts: [] });
      expect(byUrl.get(url)?.error).toMatch(/is not in PLANGATE_WEBHOOK_HOSTS/);
    }
    // Workspace hooks are signed with the server's secret, never with anything from the (untrusted) file.
    expect(allowed.received).toHaveLength(1);
    expect(
      verifySignature(SECRET, allowed.received[0]!.body, header(allowed.received[0]!, "X-Plangate-Signature")),
    ).toBe(true);
    expect(bodyOf(allowed.received[0]!).review?.id).toBe(reviewId);

    // The decision: the allowed hook did not ask for review.decided; the refused ones are refused again.
    expect(
      (await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "reject", feedback: "again" })).status,
    ).toBe(200);
    const all = await finished(id, 5);
    expect(all.filter((d) => d.event === "review.decided").map((d) => d.status)).toEqual(["refused", "refused"]);
    expect(await api.t.db.eventOutbox.count({ where: { sessionId: id } })).toBe(0);
    expect(forbidden.received).toEqual([]);
    expect(allowed.received).toHaveLength(1);
  });

  it("a workspace's hooks are not called until a person trusted its config: each is logged as refused, the receiver gets nothing", async () => {
    const hook = await receiver();
    const config = { webhooks: [{ url: hook.url("/ws") }] };
    api = testApi({
      files: {
        "README.md": "# Demo\n",
        "src/todo.ts": "export const todos = [];\n",
        ".plangate/config.json": JSON.stringify(config),
      },
      env: { PLANGATE_WEBHOOK_SECRET: SECRET, PLANGATE_WEBHOOK_HOSTS: `127.0.0.1:${hook.port}` },
    });
    runner();
    const { id } = await askReview();
    const [refused] = await finished(id, 1);
    expect(refused).toMatchObject({ url: hook.url("/ws"), status: "refused", source: "workspace", attempts: [] });
    expect(refused?.error).toMatch(/not trusted/);
    expect(hook.received).toEqual([]);
  });

  it("after a restart the owed deliveries go out from the database: the retry keeps its schedule and nothing is sent twice", async () => {
    const hook = await receiver([503]);
    api = testApi({ env: { PLANGATE_WEBHOOKS: hook.url(), PLANGATE_WEBHOOK_SECRET: SECRET } });
    // Nobody delivers yet: the webhook the review owes is an outbox row, committed with the review's event.
    const { id, reviewId } = await askReview();
    expect(await api.t.db.eventOutbox.count({ where: { sessionId: id } })).toBe(1);
    expect(await api.t.db.webhookDelivery.count()).toBe(0);

    // Process A makes the delivery, gets a 503 on the first attempt, and dies before its retry (400 ms later).
    const a = runner(api.t.db, { backoffMs: [400] });
    const [first] = await waitFor("the first attempt", async () => {
      const list = await listDeliveries(api.t.db, { sessionId: id });
      return list[0]?.attempts.length === 1 ? list : null;
    });
    a.stop();
    await a.settled();
    expect(first).toMatchObject({ status: "pending", attempts: [{ statusCode: 503 }] });
    // As if A had also died in the middle of a later attempt: a claim nobody will release, already lapsed.
    await api.t.db.webhookDelivery.update({
      where: { id: first!.id },
      data: { claim: "whc_dead", leaseUntil: new Date(Date.now() - 1) },
    });
    // While no process runs, the review is decided: another outbox row.
    expect(
      (await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "reject", feedback: "later" })).status,
    ).toBe(200);
    expect(await api.t.db.eventOutbox.count({ where: { sessionId: id } })).toBe(1);

    await settle(api, id);

    // Two new processes start together and race for the same rows. On PostgreSQL each has its own client; on
    // SQLite they share one, because better-sqlite3 waits for a lock synchronously: two clients in one thread
    // would block each other where two processes would not.
    const dbs = onPostgres ? [createDb(api.t.url), createDb(api.t.url)] : [createDb(api.t.url)];
    cleanup.push(() => Promise.all(dbs.map((d) => d.$disconnect())));
    const runners = [0, 1].map((i) => runner(dbs[i % dbs.length], { backoffMs: [400] }));
    const done = await finished(id, 2);
    await new Promise((r) => setTimeout(r, 700));
    await Promise.all(runners.map((r) => r.sweep()));
    await Promise.all(runners.map((r) => r.settled()));

    const asked = hook.received.filter((r) => header(r, "X-Plangate-Event") === "review.asked");
    const decided = hook.received.filter((r) => header(r, "X-Plangate-Event") === "review.decided");
    expect(asked).toHaveLength(2);
    expect(decided).toHaveLength(1);
    expect(asked[1]!.at - asked[0]!.at).toBeGreaterThanOrEqual(400);
    const byEvent = new Map(done.map((d) => [d.event, d]));
    expect(byEvent.get("review.asked")?.attempts.map((x) => x.statusCode)).toEqual([503, 200]);
    expect(byEvent.get("review.decided")?.attempts.map((x) => x.statusCode)).toEqual([200]);
    expect(header(decided[0]!, "X-Plangate-Delivery")).toBe(byEvent.get("review.decided")?.id);
    expect(await api.t.db.webhookDelivery.count()).toBe(2);
  });
});
