import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createDb, type Db } from "../../lib/db/client";

export type TestDb = { db: Db; url: string; file: string; dir: string; close: () => Promise<void> };

/** A fresh, migrated SQLite file (a copy of the run's template), removed on close. */
export function freshDb(): TestDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-db-"));
  const file = path.join(dir, "test.db");
  fs.copyFileSync(inject("templateDb"), file);
  const url = `file:${file}`;
  const db = createDb(url);
  return {
    db,
    url,
    file,
    dir,
    close: async () => {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
