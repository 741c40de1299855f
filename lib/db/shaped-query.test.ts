import { afterEach, describe, expect, it } from "vitest";
import { freshDb, type TestDb } from "../../tests/helpers/db";
import { kysely } from "./client";
import { type Bind, direct, shapedQuery } from "./shaped-query";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const at = new Date("2026-03-04T05:06:07.089Z");
const grant = (id: string, permission: string) => ({
  id,
  scope: "workspace",
  workspace: "/w",
  permission,
  pattern: "*",
  action: "allow",
  exact: false,
  actor: "agent",
  createdAt: new Date(at.getTime() + Number(id.slice(1)) * 1000),
});

describe("shapedQuery: compiled once per shape, each call's own values", () => {
  it("builds a shape once and binds every call's values; another shape builds again", async () => {
    t = freshDb();
    const k = kysely(t.db);
    await k
      .insertInto("PermissionGrant")
      .values([grant("g1", "bash"), grant("g2", "read"), grant("g3", "bash"), grant("g4", "edit")])
      .execute();
    const run = shapedQuery<{ id: string }>();
    let builds = 0;
    const select = (values: { permission: string; after?: Date; limit: number }) =>
      run(k, values.after ? "after" : "plain", values, (bind: Bind) => {
        builds++;
        let q = k.selectFrom("PermissionGrant").select("id").where("permission", "=", bind<string>("permission"));
        if (values.after) q = q.where("createdAt", ">", bind<Date>("after"));
        return q.orderBy("id").limit(bind<number>("limit"));
      });
    expect((await select({ permission: "bash", limit: 10 })).map((r) => r.id)).toEqual(["g1", "g3"]);
    expect((await select({ permission: "read", limit: 10 })).map((r) => r.id)).toEqual(["g2"]);
    expect((await select({ permission: "bash", limit: 1 })).map((r) => r.id)).toEqual(["g1"]);
    expect(builds).toBe(1);
    const later = new Date(at.getTime() + 2000);
    expect((await select({ permission: "bash", after: later, limit: 10 })).map((r) => r.id)).toEqual(["g3"]);
    expect((await select({ permission: "edit", after: later, limit: 10 })).map((r) => r.id)).toEqual(["g4"]);
    expect(builds).toBe(2);
  });

  it("direct binding builds the same statement with the values in place", async () => {
    t = freshDb();
    const k = kysely(t.db);
    await k
      .insertInto("PermissionGrant")
      .values([grant("g1", "bash"), grant("g2", "read")])
      .execute();
    const bind = direct({ permission: "read" });
    const rows = await k
      .selectFrom("PermissionGrant")
      .select("id")
      .where("permission", "=", bind<string>("permission"))
      .execute();
    expect(rows).toEqual([{ id: "g2" }]);
  });
});
