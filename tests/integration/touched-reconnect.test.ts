import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { closeListeners } from "../../lib/db/pg-listen";
import { insertOutboxEntries } from "../../lib/db/outbox-rows";
import { takeOutboxRow } from "../../lib/db/webhooks";
import { newId } from "../../lib/id";
import { createSession } from "../../lib/session/create-session";
import { LOG_CHANNEL, watchTouched } from "../../lib/session/log-watch";
import { freshDb, onPostgres, type TestDb } from "../helpers/db";
import { waitFor } from "../helpers/poll";

// The deliveries page hears of other instances' deliveries through LISTEN. A delivery whose notification was sent
// while that connection was down was never heard: the page stayed stale until the next delivery (issue 43).
let t: TestDb | undefined;
afterAll(async () => {
  await closeListeners();
  await t?.close();
});

async function onOther<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const LISTENING = `FROM pg_stat_activity WHERE query = 'LISTEN "${LOG_CHANNEL}"' AND datname = current_database()`;

describe.skipIf(!onPostgres)("deliveries heard across instances", () => {
  it("a delivery made while the LISTEN connection was down is heard once it reconnects", async () => {
    t = freshDb();
    const db = t.db;
    const url = t.url;
    const heard: string[] = [];
    const stop = watchTouched(db, (id) => heard.push(id));
    await waitFor("the LISTEN", () =>
      onOther(url, (c) => c.query<{ n: string }>(`SELECT count(*) AS n ${LISTENING}`)).then((r) =>
        Number(r.rows[0]?.n) === 1 ? true : null,
      ),
    );
    const { id } = await createSession(db, {
      title: "hooks",
      workspace: "/nowhere",
      agent: "build",
      model: "offline",
      mode: "default",
    });
    // Another instance makes a delivery; its "touched" notification is lost with the connection (never sent here).
    const outbox = newId("obx");
    await insertOutboxEntries(db, [
      { id: outbox, sessionId: id, seq: 1, type: "session.created", createdAt: new Date() },
    ]);
    const now = new Date();
    const made = await takeOutboxRow(db, outbox, [
      {
        id: newId("whd"),
        sessionId: id,
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
    expect(heard).toEqual([]);
    const cut = await onOther(url, (c) =>
      c.query<{ n: string }>(`SELECT count(pg_terminate_backend(pid)) AS n ${LISTENING}`),
    );
    expect(Number(cut.rows[0]?.n)).toBe(1);
    await waitFor("the deliveries read back after the reconnect", () => (heard.includes(id) ? true : null));
    stop();
  });
});
