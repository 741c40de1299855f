import { afterAll, describe, expect, it } from "vitest";
import { closeListeners } from "../../lib/db/pg-listen";
import { insertOutboxEntries } from "../../lib/db/outbox-rows";
import { claimDelivery, failClaimedDelivery, takeOutboxRow } from "../../lib/db/webhooks";
import type { Db } from "../../lib/db/client";
import { newId } from "../../lib/id";
import { createSession } from "../../lib/session/create-session";
import { LOG_CHANNEL, watchTouched } from "../../lib/session/log-watch";
import { freshDb, onOtherConnection, onPostgres, type TestDb } from "../helpers/db";
import { waitFor } from "../helpers/poll";

// The deliveries page hears of other instances' deliveries through LISTEN. A delivery whose notification was sent
// while that connection was down was never heard: the page stayed stale until the next delivery (issue 43).
const dbs: TestDb[] = [];
afterAll(async () => {
  await closeListeners();
  for (const t of dbs) await t.close();
});

const LISTENING = `FROM pg_stat_activity WHERE query = 'LISTEN "${LOG_CHANNEL}"' AND datname = current_database()`;

/** A database with a touched-listener whose LISTEN is established, and a session in it. */
async function listening() {
  const t = freshDb();
  dbs.push(t);
  const heard: string[] = [];
  const stop = watchTouched(t.db, (id) => heard.push(id));
  await waitFor("the LISTEN", () =>
    onOtherConnection(t.url, (c) => c.query<{ n: string }>(`SELECT count(*) AS n ${LISTENING}`)).then((r) =>
      Number(r.rows[0]?.n) === 1 ? true : null,
    ),
  );
  const { id } = await createSession(t.db, {
    title: "hooks",
    workspace: "/nowhere",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  const cut = async () => {
    const r = await onOtherConnection(t.url, (c) =>
      c.query<{ n: string }>(`SELECT count(pg_terminate_backend(pid)) AS n ${LISTENING}`),
    );
    expect(Number(r.rows[0]?.n)).toBe(1);
  };
  return { db: t.db, id, heard, stop, cut };
}

/** Another instance makes a delivery (its id timed `at`); its "touched" notification is never sent here. */
async function makeDelivery(db: Db, sessionId: string, at: number): Promise<string> {
  const outbox = newId("obx");
  await insertOutboxEntries(db, [{ id: outbox, sessionId, seq: 1, type: "session.created", createdAt: new Date() }]);
  const id = newId("whd", at);
  const now = new Date(at);
  const made = await takeOutboxRow(db, outbox, [
    {
      id,
      sessionId,
      seq: 1,
      event: "session.created",
      url: "https://hooks.invalid/x",
      source: "server",
      status: "pending",
      body: "{}",
      attempts: 0,
      nextAttemptAt: now,
      error: null,
      createdAt: now,
      finishedAt: null,
    },
  ]);
  expect(made).toBe(true);
  return id;
}

describe.skipIf(!onPostgres)("deliveries heard across instances", () => {
  it("a delivery made while the LISTEN connection was down is heard once it reconnects", async () => {
    const l = await listening();
    await makeDelivery(l.db, l.id, Date.now());
    expect(l.heard).toEqual([]);
    await l.cut();
    await waitFor("the deliveries read back after the reconnect", () => (l.heard.includes(l.id) ? true : null));
    l.stop();
  });

  it("a delivery made long before, ended without an attempt while the connection was down, is heard too", async () => {
    const l = await listening();
    const delivery = await makeDelivery(l.db, l.id, Date.now() - 10 * 60_000);
    // Its secret was removed: the sender ends it uncalled, writing no attempt.
    const now = new Date();
    expect(await claimDelivery(l.db, delivery, "whc_test", now, new Date(now.getTime() + 60_000))).toBe(true);
    await failClaimedDelivery(l.db, delivery, "whc_test", "no secret", now);
    expect(l.heard).toEqual([]);
    await l.cut();
    await waitFor("the ended delivery read back after the reconnect", () => (l.heard.includes(l.id) ? true : null));
    l.stop();
  });
});
