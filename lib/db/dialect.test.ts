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
