// Webhooks on plan events, with a real database and a real HTTP receiver: signed attempts with backoff, the pages
// told of each delivery, and each decision's event (which hooks are called at all: webhooks-reach.test.ts).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { awaitReview, call, startScripted, testApi } from "../helpers/api";
import { exitWith, PLAN_V1 } from "../helpers/plan-kit";
import { WebhookDeliveries } from "../../components/webhook-deliveries";
import { subscribeAnySession, subscribeEvents, subscribeTouched } from "../../lib/session/bus";
import { watchTouched } from "../../lib/session/log-watch";
import { verifySignature } from "../../lib/webhooks/sign";
import { waitFor } from "../helpers/poll";
import type { Api } from "../helpers/api";
import { webhookKit, SECRET, bodyOf, header } from "../helpers/webhook-kit";

let api: Api;
const { cleanup, runner, receiver, askReview, deliveriesApi, finished } = webhookKit(() => api);

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
});
