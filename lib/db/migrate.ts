import "server-only";
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { isPostgresUrl, isSqliteUrl, sqlitePathFromUrl } from "./sqlite-path";
import { ensurePrivateFile } from "./private-files";

const root = path.resolve(import.meta.dirname, "..", "..");
export const POSTGRES_MIGRATIONS = path.join(root, "prisma", "postgres", "migrations");

/**
 * Applies the committed migrations to the database at url. SQLite: `prisma migrate deploy` (wasm schema engine),
 * done before this returns. PostgreSQL: see migratePostgres.
 */
export function migrateDatabase(url: string, opts: { quiet?: boolean } = {}): Promise<void> {
  if (isPostgresUrl(url)) return migratePostgres(url, opts);
  if (isSqliteUrl(url)) {
    // The database file exists, its owner's only, before Prisma or SQLite makes it (or its journals) with the umask's mode.
    fs.mkdirSync(path.dirname(sqlitePathFromUrl(url)), { recursive: true, mode: 0o700 });
    ensurePrivateFile(sqlitePathFromUrl(url));
  }
  const prismaBin = path.join(root, "node_modules", "prisma", "build", "index.js");
  execFileSync(process.execPath, [prismaBin, "migrate", "deploy"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: isSqliteUrl(url) ? `file:${sqlitePathFromUrl(url)}` : url,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
    },
    stdio: opts.quiet ? "pipe" : "inherit",
  });
  if (isSqliteUrl(url)) {
    const sqlite = new Database(sqlitePathFromUrl(url));
    // WAL persists in the file: readers never block the writer, and a committed append survives kill -9.
    sqlite.pragma("journal_mode = WAL");
    sqlite.close();
  }
  return Promise.resolve();
}

// Any fixed 64-bit key: every instance that starts takes the same lock, so one migrates and the others wait.
const MIGRATION_LOCK = 7_260_318_110_001;

// Prisma's own bookkeeping table, column for column, so that `prisma migrate deploy` and `migrate status` see
// these migrations as applied once they can read PostgreSQL through the adapter (prisma/orm issue 27403).
const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export type PgMigration = { name: string; sql: string; checksum: string };

/** The committed PostgreSQL migrations in order, with Prisma's checksum (SHA-256 of migration.sql, hex). */
export function postgresMigrations(dir = POSTGRES_MIGRATIONS): PgMigration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * `prisma migrate deploy` cannot read PostgreSQL through the driver adapter yet, so the migrations are applied
 * here: under an advisory lock (instances starting together migrate once), each in its own transaction with
 * its `_prisma_migrations` row, as Prisma records them. A migration that failed half-way (a row without
 * finished_at) stops the start, as Prisma's P3009 does; an applied migration whose file changed is reported.
 */
export async function migratePostgres(url: string, opts: { quiet?: boolean; dir?: string } = {}): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(BOOKKEEPING);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>('SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations"');
    const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed)
      throw new Error(
        `migration ${failed.migration_name} failed earlier and was not rolled back: fix the database, then mark it rolled back`,
      );
    const applied = new Map(
      rows
        .filter((r) => r.finished_at !== null && r.rolled_back_at === null)
        .map((r) => [r.migration_name, r.checksum]),
    );
    for (const m of postgresMigrations(opts.dir)) {
      const done = applied.get(m.name);
      if (done !== undefined) {
        if (done !== m.checksum) console.warn(`plangate: migration ${m.name} was changed after it was applied`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          'INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count") VALUES ($1, $2, now(), $3, now(), 1)',
          [crypto.randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw new Error(`migration ${m.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!opts.quiet) console.log(`plangate: applied migration ${m.name}`);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock_all()").catch(() => undefined);
    await client.end();
  }
}
