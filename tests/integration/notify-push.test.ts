import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import webpush from "web-push";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../lib/env";
import { startWebhooks, type WebhookRunner } from "../../lib/webhooks/runner";
import { awaitReview, settle, testApi, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";
import { type PushReceiver, startPushReceiver } from "../helpers/push-receiver";

// Issue 46, on both engines: Web Push to the devices of exactly the people who can act, each payload encrypted for
// its device (aes128gcm) and signed with the server's VAPID key, checked by a push service the test runs; and ntfy
// on the operator's server. What reaches the phone links to the desk and decides nothing.
const VAPID = webpush.generateVAPIDKeys();
const KEYS = [
  "PLANGATE_VAPID_PUBLIC_KEY",
  "PLANGATE_VAPID_PRIVATE_KEY",
  "PLANGATE_VAPID_SUBJECT",
  "PLANGATE_PUSH_HOSTS",
  "PLANGATE_NTFY_URL",
  "PLANGATE_PUBLIC_URL",
];
type Published = { topic: string; headers: http.IncomingHttpHeaders; body: string };

let api: Api;
let push: PushReceiver;
let runner: WebhookRunner;
let ntfy: { url: string; got: Published[]; events: EventEmitter; close: () => Promise<void> };

async function startNtfy() {
  const got: Published[] = [];
  const events = new EventEmitter();
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      got.push({ topic: decodeURIComponent((req.url ?? "").slice(1)), headers: req.headers, body });
      events.emit("published");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "m1", event: "message" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, got, events, close: () => new Promise<void>((r) => server.close(() => r())) };
}

beforeEach(async () => {
  // The test's push service has a throwaway certificate for 127.0.0.1; web-push (https only) must accept it. This
  // file's worker only: every other connection it makes is to loopback servers of its own.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  push = await startPushReceiver(VAPID.publicKey);
  ntfy = await startNtfy();
  api = testApi({
    env: {
      PLANGATE_VAPID_PUBLIC_KEY: VAPID.publicKey,
      PLANGATE_VAPID_PRIVATE_KEY: VAPID.privateKey,
      PLANGATE_VAPID_SUBJECT: "mailto:ops@example.test",
      PLANGATE_PUSH_HOSTS: new URL(push.origin).host,
      PLANGATE_NTFY_URL: ntfy.url,
      PLANGATE_PUBLIC_URL: "https://desk.example.test",
    },
  });
  runner = startWebhooks(api.t.db, { sweepMs: 250, notices: { backoffMs: [100, 200], timeoutMs: 5_000 } });
});
afterEach(async () => {
  runner.stop();
  await runner.settled();
  await push.close();
  await ntfy.close();
  await api.close();
  for (const k of KEYS) delete process.env[k];
  delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  resetEnvCache();
});

const { person } = policyKit(() => api);

async function pendingPlan(title = "Ping route") {
  const res = await api.call("POST", "/api/sessions", {
    title,
    workspace: api.workspace,
    model: "scripted",
    script: [exitWith("# Add a ping route\n\n1. Change src/app.ts\n"), { text: "done" }],
    mode: "plan",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const sessionId = res.body.session.id as string;
  expect((await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" })).status).toBe(202);
  return { sessionId, reviewId: await awaitReview(api, sessionId) };
}

/** Every notice finished (sent, failed or withdrawn) and the outbox empty: nothing more is on its way. */
const drained = () =>
  waitFor("every notice finished", async () => {
    await runner.sweep();
    await runner.settled();
    return (
      (await api.t.db.eventOutbox.count()) === 0 &&
      (await api.t.db.notice.count({ where: { status: "pending" } })) === 0
    );
  });

describe("phone push", () => {
  it("reaches the devices of exactly those who can act, encrypted and VAPID-signed; the decision replaces it", async () => {
    const ada = await person("reviewer", "ada@example.com");
    const vic = await person("viewer", "vic@example.com");
    await person("owner", "olga@example.com");
    const phone = push.device();
    const vicPhone = push.device();
    expect((await api.call("POST", "/api/me/push", { endpoint: phone.endpoint, keys: phone.keys }, ada)).status).toBe(
      201,
    );
    expect(
      (await api.call("POST", "/api/me/push", { endpoint: vicPhone.endpoint, keys: vicPhone.keys }, vic)).status,
    ).toBe(201);
    // Where the server would POST is the device's word: anything but a push service is refused, nothing kept.
    const metadata = await api.call(
      "POST",
      "/api/me/push",
      { endpoint: "https://169.254.169.254/latest/meta-data", keys: phone.keys },
      ada,
    );
    expect(metadata.status).toBe(400);
    expect(JSON.stringify(metadata.body)).toMatch(/not a browser push service/);
    expect((await api.call("POST", "/api/me/push", { endpoint: phone.endpoint, keys: phone.keys })).status).toBe(403);
    // A host another URL parser reads as 10.0.0.5 (web-push's, Node's older one) is refused, not narrowed.
    const split = await api.call(
      "POST",
      "/api/me/push",
      { endpoint: "https://10.0.0.5;.fcm.googleapis.com/x", keys: phone.keys },
      ada,
    );
    expect([split.status, split.body.error?.message]).toEqual([
      400,
      "the push endpoint's host must be a plain DNS name",
    ]);
    const fake = await api.call(
      "POST",
      "/api/me/push",
      { endpoint: "https://fcm.googleapis.com/fcm/send/x", keys: { p256dh: "A".repeat(87), auth: phone.keys.auth } },
      ada,
    );
    expect(fake.status).toBe(400);
    // Vic knows Ada's endpoint: posting it with his own keys does not take her phone over.
    const takeover = await api.call(
      "POST",
      "/api/me/push",
      { endpoint: phone.endpoint, keys: { ...vicPhone.keys } },
      vic,
    );
    expect(takeover.status).toBe(409);
    const adas = await api.t.db.pushSubscription.findFirst({ where: { endpoint: phone.endpoint } });
    expect([adas?.userId, adas?.p256dh]).toEqual([ada.userId, phone.keys.p256dh]);
    // Ada's browser registering again gets the same device back.
    const again = await api.call("POST", "/api/me/push", { endpoint: phone.endpoint, keys: phone.keys }, ada);
    expect([again.status, again.body.id]).toEqual([201, adas?.id]);
    expect(await api.t.db.pushSubscription.count()).toBe(2);

    const { sessionId, reviewId } = await pendingPlan();
    await drained();
    // Vic only reads, Olga has no device: Ada's phone alone gets it, and nobody's push service refused anything.
    expect(push.refused).toEqual([]);
    expect(push.received.map((p) => p.device)).toEqual([phone.id]);
    expect(push.received[0]?.payload).toEqual({
      title: "A plan waits for you: Ping route",
      body: "A plan from Plangate waits for your decision.",
      url: `https://desk.example.test/desk?item=${reviewId}`,
      tag: reviewId,
    });
    expect(push.received[0]?.urgency).toBe("high");

    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, ada)).status).toBe(
      200,
    );
    await settle(api, sessionId);
    await drained();
    const decided = push.received.filter((p) => String(p.payload.title).startsWith("Approved"));
    // The same tag: the phone's notice about the item is replaced by who decided it.
    expect(decided.map((p) => [p.device, p.payload.title, p.payload.tag])).toEqual([
      [phone.id, "Approved by ada: Ping route", reviewId],
    ]);
  });

  it("a device its push service says is gone is removed, and nothing more is sent to it", async () => {
    const ada = await person("reviewer", "ada@example.com");
    const phone = push.device();
    expect((await api.call("POST", "/api/me/push", { endpoint: phone.endpoint, keys: phone.keys }, ada)).status).toBe(
      201,
    );
    push.gone.add(phone.id);
    await pendingPlan();
    await drained();
    expect(push.refused.map((r) => r.reason)).toEqual(["gone"]);
    expect(await api.t.db.pushSubscription.count()).toBe(0);
    const notice = await api.t.db.notice.findFirst({ where: { channel: "push" } });
    expect([notice?.status, notice?.error]).toEqual([
      "failed",
      "the device unsubscribed (its push service answered gone); it was removed",
    ]);
  });
});

describe("ntfy", () => {
  it("publishes to the person's topic on the operator's server, with a view action to the desk item", async () => {
    const ada = await person("reviewer", "ada@example.com");
    const set = await api.call(
      "PUT",
      "/api/me/notifications",
      { email: true, ntfyTopic: "ada-plans", events: ["waiting"] },
      ada,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const elsewhere = await api.call(
      "PUT",
      "/api/me/notifications",
      { email: true, ntfyTopic: "../../admin", events: ["waiting"] },
      ada,
    );
    expect(elsewhere.status).toBe(400);
    const { reviewId } = await pendingPlan();
    await drained();
    const link = `https://desk.example.test/desk?item=${reviewId}`;
    expect(ntfy.got.map((m) => [m.topic, m.headers.title, m.headers.click, m.headers.actions, m.body])).toEqual([
      [
        "ada-plans",
        "A plan waits for you: Ping route",
        link,
        `view, Open on the desk, ${link}`,
        "A plan from Plangate waits for your decision.",
      ],
    ]);
  });
});
