import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, type Db } from "../../lib/db/client";
import { migrateDatabase } from "../../lib/db/migrate";

export function tempDb(name: string): { db: Db; file: string; url: string; dispose: () => Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plangate-bench-${name}-`));
  const file = path.join(dir, "bench.db");
  const url = `file:${file}`;
  migrateDatabase(url, { quiet: true });
  const db = createDb(url);
  return {
    db,
    file,
    url,
    dispose: async () => {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
