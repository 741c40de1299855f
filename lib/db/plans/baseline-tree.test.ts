import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { freshDb, type TestDb } from "../../../tests/helpers/db";
import { latestApprovalQuery } from "./baseline-tree";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
});

describe("the approval's lookup of its version and approving review", () => {
  it("reads by index on SQLite: no step scans a table, so an approval does not slow down as reviews pile up", async () => {
    t = freshDb();
    const { sql, parameters } = latestApprovalQuery(t.db, "ses_x").compile();
    const sqlite = new Database(t.file, { readonly: true });
    try {
      const steps = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(parameters as unknown[])) as {
        detail: string;
      }[];
      expect(steps.length).toBeGreaterThan(0);
      expect(steps.map((s) => s.detail).filter((d) => /^SCAN /.test(d))).toEqual([]);
    } finally {
      sqlite.close();
    }
  });
});
