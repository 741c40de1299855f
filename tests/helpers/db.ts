import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { createDb, type Db } from "../../lib/db/client";
import { postgresBinDir } from "../../scripts/local-postgres";

export type TestDb = {
  db: Db;
  url: string;
  file: string;
  dir: string;
  provider: "sqlite" | "postgres";
  close: () => Promise<void>;
};

/** Which database this vitest project runs on (the "postgres" project sets PLANGATE_TEST_DB). */
export const onPostgres = process.env.PLANGATE_TEST_DB === "postgres";

function psql(sql: string): void {
  const bin = postgresBinDir();
  const r = spawnSync(bin ? path.join(bin, "psql") : "psql", [inject("pgUrl"), "-v", "ON_ERROR_STOP=1", "-qc", sql], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
}

/**
 * A fresh, migrated database URL: on SQLite a copy of the run's template file in dir, on PostgreSQL a new
 * database cloned from the run's migrated template (CREATE DATABASE … TEMPLATE: milliseconds).
 */
export function freshDatabaseUrl(dir: string): { url: string; file: string; drop: () => void } {
  if (!onPostgres) {
    const file = path.join(dir, "test.db");
    fs.copyFileSync(inject("templateDb"), file);
    return { url: `file:${file}`, file, drop: () => undefined };
  }
  const name = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  psql(`CREATE DATABASE "${name}" TEMPLATE "${inject("pgTemplate")}"`);
  const url = new URL(inject("pgUrl"));
  url.pathname = `/${name}`;
  return { url: url.toString(), file: "", drop: () => psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** A fresh, migrated database (see freshDatabaseUrl) with a client, removed on close. */
export function freshDb(): TestDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-db-"));
  const { url, file, drop } = freshDatabaseUrl(dir);
  const db = createDb(url);
  return {
    db,
    url,
    file,
    dir,
    provider: onPostgres ? "postgres" : "sqlite",
    close: async () => {
      await db.$disconnect();
      drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs fn on a PostgreSQL connection of its own (as another instance would), closed after. */
export async function onOtherConnection<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
