import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { freshDb, type TestDb } from "../../tests/helpers/db";
import { kysely, withTransaction } from "./client";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const at = new Date("2026-03-04T05:06:07.089Z");
const grant = (id: string, exact: boolean) => ({
  id,
  scope: "workspace",
  workspace: "/w",
  permission: "bash",
  pattern: "ls *",
  action: "allow",
  exact,
  actor: "agent",
  createdAt: at,
});

describe("Kysely on the Prisma driver adapter", () => {
  it("gives the same row on both engines: Date for dates, boolean for booleans, number for counts", async () => {
    t = freshDb();
    const k = kysely(t.db);
    await k
      .insertInto("PermissionGrant")
      .values([grant("g1", true), grant("g2", false)])
      .execute();
    const rows = await k.selectFrom("PermissionGrant").select(["id", "exact", "createdAt"]).orderBy("id").execute();
    expect(rows).toEqual([
      { id: "g1", exact: true, createdAt: at },
      { id: "g2", exact: false, createdAt: at },
    ]);
    const counted = await k
      .selectFrom("PermissionGrant")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(counted.n).toBe(2);
    // Prisma's ORM reads what Kysely wrote (same stored format).
    expect((await t.db.permissionGrant.findUnique({ where: { id: "g1" } }))?.createdAt).toEqual(at);
  });

  it("reports changed rows and compares dates in SQL on both engines", async () => {
    t = freshDb();
    const k = kysely(t.db);
    await k
      .insertInto("PermissionGrant")
      .values([grant("g1", true), grant("g2", false)])
      .execute();
    const updated = await k
      .updateTable("PermissionGrant")
      .set({ action: "deny" })
      .where("exact", "=", false)
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const none = await k
      .deleteFrom("PermissionGrant")
      .where("createdAt", ">", new Date(at.getTime() + 1))
      .executeTakeFirst();
    expect(none.numDeletedRows).toBe(0n);
    const returned = await k.deleteFrom("PermissionGrant").where("id", "=", "g2").returning(["id", "action"]).execute();
    expect(returned).toEqual([{ id: "g2", action: "deny" }]);
    const raw = await sql<{ one: number }>`SELECT 1 AS one`.execute(k);
    expect(raw.rows).toEqual([{ one: 1 }]);
  });

  it("commits a transaction's writes together, or none of them when it throws", async () => {
    t = freshDb();
    const db = t.db;
    await expect(
      withTransaction(db, async (trx) => {
        await trx.insertInto("PermissionGrant").values(grant("g1", true)).execute();
        await withTransaction(trx, (inner) => inner.insertInto("PermissionGrant").values(grant("g2", true)).execute());
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await kysely(db).selectFrom("PermissionGrant").select("id").execute()).toEqual([]);
    await withTransaction(db, async (trx) => {
      await trx.insertInto("PermissionGrant").values(grant("g1", true)).execute();
      await trx.insertInto("PermissionGrant").values(grant("g2", true)).execute();
    });
    expect((await kysely(db).selectFrom("PermissionGrant").select("id").execute()).length).toBe(2);
  });

  it("keeps a ? inside a string literal as text on PostgreSQL", async () => {
    t = freshDb();
    const k = kysely(t.db);
    await k
      .insertInto("PermissionGrant")
      .values({ ...grant("g1", true), pattern: "what?" })
      .execute();
    const row = await k
      .selectFrom("PermissionGrant")
      .select("id")
      .where("pattern", "=", sql<string>`'what?'`)
      .executeTakeFirst();
    expect(row).toEqual({ id: "g1" });
  });
});

describe("a transaction whose COMMIT fails", () => {
  it("rolls back, reports the error and leaves the database usable for the next transaction", async () => {
    t = freshDb();
    const db = t.db;
    // The attack: a constraint checked only at COMMIT makes the COMMIT itself fail (SQLite keeps the transaction
    // open then). Before the fix the adapter's lock stayed held and every later transaction waited forever.
    const failing = withTransaction(db, async (trx) => {
      await sql`CREATE TEMP TABLE zz_parent (id INTEGER PRIMARY KEY)`.execute(trx);
      await sql`CREATE TEMP TABLE zz_child (pid INTEGER REFERENCES zz_parent (id) DEFERRABLE INITIALLY DEFERRED)`.execute(
        trx,
      );
      await trx.insertInto("PermissionGrant").values(grant("lost", true)).execute();
      await sql`INSERT INTO zz_child (pid) VALUES (1)`.execute(trx);
    });
    await expect(failing).rejects.toThrow(/foreign ?key/i);
    // The next transaction runs (a held lock would hang here until the test's timeout) and sees nothing of the
    // failed one.
    const ids = await withTransaction(db, async (trx) => {
      await trx.insertInto("PermissionGrant").values(grant("kept", true)).execute();
      return (await trx.selectFrom("PermissionGrant").select("id").execute()).map((r) => r.id);
    });
    expect(ids).toEqual(["kept"]);
    expect(await kysely(db).selectFrom("PermissionGrant").select("id").execute()).toEqual([{ id: "kept" }]);
  });
});
