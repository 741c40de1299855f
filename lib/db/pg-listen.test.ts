import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDb, onOtherConnection, onPostgres, type TestDb } from "../../tests/helpers/db";
import { waitFor } from "../../tests/helpers/poll";
import { closeListeners, listen } from "./pg-listen";

let t: TestDb;
beforeAll(() => {
  if (onPostgres) t = freshDb();
});
afterAll(async () => {
  await closeListeners();
  await t?.close();
});

const onOther = <T>(fn: (c: pg.Client) => Promise<T>) => onOtherConnection(t.url, fn);

describe.skipIf(!onPostgres)("PostgreSQL notifications", () => {
  it("delivers committed notifications only; after its connection is cut it reconnects and tells listeners to re-check", async () => {
    const heard: (string | null)[] = [];
    const unlisten = await listen(t.db, "plangate_test", (p) => heard.push(p));
    await onOther((c) => c.query("SELECT pg_notify('plangate_test', 'one')"));
    await onOther(async (c) => {
      await c.query("BEGIN");
      await c.query("SELECT pg_notify('plangate_test', 'rolled back')");
      await c.query("ROLLBACK");
    });
    await onOther((c) => c.query("SELECT pg_notify('plangate_test', 'two')"));
    await waitFor("the committed notification", () => heard.includes("two"));
    expect(heard).toEqual(["one", "two"]);

    // The listening connection dies (a restart, a network cut): notifications sent meanwhile are lost, so the
    // listener is told to re-check (null), and what comes after the reconnect arrives again.
    const cut = await onOther((c) =>
      c.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE query = 'LISTEN "plangate_test"' AND datname = current_database()`,
      ),
    );
    expect(Number(cut.rows[0]?.n)).toBe(1);
    await waitFor("the re-check after the reconnect", () => heard.includes(null));
    // Sent until heard: the listener may still be reconnecting when the first ones go out.
    for (let i = 0; i < 100 && !heard.includes("three"); i++) {
      await onOther((c) => c.query("SELECT pg_notify('plangate_test', 'three')"));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(heard).toContain("three");
    unlisten();
  });
});
