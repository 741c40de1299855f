// Which webhooks are called, with a real database and real HTTP receivers: a workspace's hooks only to hosts the
// server allows and only once a person trusted its config; deliveries owed when the server restarts go out once.
import { describe, expect, it } from "vitest";
import { settle, testApi, trustWorkspaceConfig } from "../helpers/api";
import { onPostgres } from "../helpers/db";
import { createDb } from "../../lib/db/client";
import { listDeliveries } from "../../lib/webhooks/list-deliveries";
import { verifySignature } from "../../lib/webhooks/sign";
import { waitFor } from "../helpers/poll";
import type { Api } from "../helpers/api";
import { webhookKit, SECRET, bodyOf, header } from "../helpers/webhook-kit";

let api: Api;
const { cleanup, runner, receiver, askReview, finished } = webhookKit(() => api);

describe("webhooks: which hooks are called, and deliveries owed across a restart (real database, real HTTP receiver)", () => {
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
