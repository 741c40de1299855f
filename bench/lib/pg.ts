/**
 * The PostgreSQL a bench runs on: PLANGATE_BENCH_PG_URL when set (a server of the caller's; the bench makes and
 * drops its own databases there), else a private cluster started for the bench (scripts/local-postgres.ts).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { migrateDatabase } from "../../lib/db/migrate";
import { startLocalPostgres } from "../../scripts/local-postgres";

export type BenchPostgres = {
  /** Where the figures were measured, for the bench's output. */
  source: string;
  /** A new, migrated database; its URL. */
  database: (name: string) => Promise<string>;
  /** Drops the databases made here and stops a cluster started here. */
  dispose: () => Promise<void>;
};

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function benchPostgres(): Promise<BenchPostgres> {
  const given = process.env.PLANGATE_BENCH_PG_URL;
  const local = given ? null : await startLocalPostgres();
  const base = given ?? (local as NonNullable<typeof local>).url();
  const version = await admin(
    base,
    async (c) => (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? "?",
  );
  const settings = await admin(base, async (c) => {
    const { rows } = await c.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit')",
    );
    return rows.map((r) => `${r.name}=${r.setting}`).join(", ");
  });
  const source = given
    ? `PLANGATE_BENCH_PG_URL (PostgreSQL ${version}, ${settings})`
    : `private cluster from scripts/local-postgres.ts on port ${local?.port} (PostgreSQL ${version}, ${settings})`;
  const made: string[] = [];
  const suffix = crypto.randomBytes(4).toString("hex");
  return {
    source,
    database: async (name) => {
      const db = `plangate_bench_${name}_${suffix}`;
      await admin(base, (c) => c.query(`CREATE DATABASE "${db}"`));
      made.push(db);
      const url = withDatabase(base, db);
      await migrateDatabase(url, { quiet: true });
      return url;
    },
    dispose: async () => {
      if (local) {
        local.stop();
        return fs.rmSync(local.dir, { recursive: true, force: true });
      }
      for (const db of made)
        await admin(base, (c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`)).catch(() => undefined);
    },
  };
}
