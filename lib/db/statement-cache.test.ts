import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import type Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { cacheStatements } from "./statement-cache";

// The real adapter on a real file, its Database's prepare counted underneath the cache.
let dir = "";
let adapter: SqlDriverAdapter | undefined;
afterEach(async () => {
  await adapter?.dispose();
  adapter = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function open() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-stmt-"));
  adapter = await new PrismaBetterSQLite3({ url: `file:${path.join(dir, "t.db")}` }).connect();
  const client = (adapter as unknown as { client: Database.Database }).client;
  const prepare = client.prepare.bind(client);
  const prepared: string[] = [];
  client.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof client.prepare;
  expect(cacheStatements(adapter)).toBe(true);
  await adapter.executeScript('CREATE TABLE "T" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)');
  return { a: adapter, prepared };
}

const str = { scalarType: "string", arity: "scalar" } as const;
const int = { scalarType: "int", arity: "scalar" } as const;
const insert = (id: number, name: string) => ({
  sql: 'INSERT INTO "T" ("id", "name") VALUES (?, ?)',
  args: [id, name],
  argTypes: [int, str],
});
const byName = (name: string) => ({
  sql: 'SELECT "id" FROM "T" WHERE "name" = ? ORDER BY "id"',
  args: [name],
  argTypes: [str],
});

describe("cacheStatements: one prepared statement per SQL text, each call's own values", () => {
  it("prepares a text once and binds every call's values, for reads and writes", async () => {
    const { a, prepared } = await open();
    for (const [id, name] of [
      [1, "x"],
      [2, "y"],
      [3, "x"],
    ] as const)
      expect(await a.executeRaw(insert(id, name))).toBe(1);
    const ids = async (name: string) => (await a.queryRaw(byName(name))).rows.map((r) => Number(r[0]));
    expect(await ids("x")).toEqual([1, 3]);
    expect(await ids("y")).toEqual([2]);
    expect(await ids("z")).toEqual([]);
    expect(prepared.filter((s) => s.startsWith("INSERT"))).toHaveLength(1);
    expect(prepared.filter((s) => s.startsWith("SELECT"))).toHaveLength(1);
  });

  it("keeps the adapter's transactions: a rollback undoes, a commit keeps, a failed statement can run again", async () => {
    const { a } = await open();
    const tx = await a.startTransaction();
    await tx.executeRaw(insert(1, "gone"));
    await tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] });
    await tx.rollback();
    const kept = await a.startTransaction();
    await kept.executeRaw(insert(2, "kept"));
    await kept.executeRaw({ sql: "COMMIT", args: [], argTypes: [] });
    await kept.commit();
    await expect(a.executeRaw(insert(2, "twice"))).rejects.toThrow();
    expect(await a.executeRaw(insert(3, "after"))).toBe(1);
    const rows = await a.queryRaw({ sql: 'SELECT "id", "name" FROM "T" ORDER BY "id"', args: [], argTypes: [] });
    expect(rows.rows.map((r) => [Number(r[0]), r[1]])).toEqual([
      [2, "kept"],
      [3, "after"],
    ]);
  });

  it("leaves an adapter of another shape alone", () => {
    expect(cacheStatements({})).toBe(false);
    expect(cacheStatements({ client: { query: () => undefined } })).toBe(false);
  });
});
