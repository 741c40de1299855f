import { describe, expect, it } from "vitest";
import { ormModels, sqlFindings } from "./check-sql";

const models = ormModels("model Session {\n}\nmodel PlanVersion {\n}\n");
const whats = (code: string) => sqlFindings("lib/x.ts", code, models).map((f) => f.what.split(":")[0]);

describe("check-sql", () => {
  it.each([
    ['const q = \'SELECT "id" FROM "Session" WHERE "id" = ?\';', ["SQL text"]],
    ['const q = `UPDATE "Plan" SET status = ${s}`;', ["SQL text"]],
    ['run.execute("DELETE FROM x")', ["SQL text"]],
    ['run.execute("insert into t values (1)")', ["SQL text"]],
    ['import { sql } from "kysely";', ["imports kysely"]],
    ['import pg from "pg";', ["imports pg"]],
    ['export { PrismaPg } from "@prisma/adapter-pg";', ["imports @prisma/adapter-pg"]],
    ['k.selectFrom("Session").selectAll().execute()', ["query builder"]],
    ['trx.updateTable("Plan").set({}).execute()', ["query builder"]],
    ["db.session.findUnique({ where: { id } })", ["Prisma ORM"]],
    ["tx.planVersion.updateMany({})", ["Prisma ORM"]],
    ["db.$transaction(async () => {})", ["Prisma raw"]],
    ["db.$queryRawUnsafe('x')", ["Prisma raw"]],
  ])("finds %s", (code, expected) => {
    expect(whats(code)).toEqual(expected);
  });

  it.each([
    ['const m = "Select a plan from the list";'],
    ['const m = "Update the settings";'],
    ['const m = "Delete from the history? It cannot be undone.";'],
    ['const m = "Insert into the plan a rollback step";'],
    ['import { x } from "../db/plans";'],
    ["map.delete(key); set.delete(k); cache.update(x);"],
    ["// SELECT * FROM Session in a comment"],
    ["const s = `select * ${from}`;"],
    ['getSession(db, "id")'],
  ])("lets %s through", (code) => {
    expect(whats(code)).toEqual([]);
  });

  it("names the file and line", () => {
    expect(sqlFindings("lib/a.ts", '\n\nconst q = "DELETE FROM t";', models)).toEqual([
      { file: "lib/a.ts", line: 3, what: 'SQL text: "DELETE FROM t"' },
    ]);
  });
});
