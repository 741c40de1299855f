import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl, onPostgres } from "../../tests/helpers/db";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema } from "../../scripts/pg-schema";
import { migratePostgres, postgresMigrations } from "./migrate";

const root = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-migrate-"));
const drops: (() => void)[] = [];
afterAll(() => {
  for (const d of drops) d();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the PostgreSQL schema", () => {
  it("is prisma/schema.prisma with only the provider and the client folder changed", () => {
    expect(fs.readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  });
});

/** An empty database on the test cluster (not the migrated template). */
async function emptyDatabase(name: string): Promise<string> {
  const base = new URL(freshDatabaseUrl(dir).url);
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  base.pathname = `/${name}`;
  const url = base.toString();
  drops.push(() =>
    execFileSync("psql", [
      new URL("/postgres", url).toString(),
      "-qc",
      `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`,
    ]),
  );
  return url;
}

async function rows<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

// Tables, columns (type, nullability, default) and indexes: what the models and the migrations must agree on.
const SHAPE = `SELECT 'col' AS k, table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS v
  FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT IN ('_prisma_migrations', 'SessionSearch')
  UNION ALL SELECT 'idx', indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT IN ('_prisma_migrations', 'SessionSearch')
  ORDER BY 1, 2`;

describe.skipIf(!onPostgres)("PostgreSQL migrations", () => {
  const tag = `${process.pid}_${Date.now().toString(36)}`;

  it("instances starting together migrate once, and the result is exactly the schema the models describe", async () => {
    const url = await emptyDatabase(`m_${tag}`);
    await Promise.all([1, 2, 3].map(() => migratePostgres(url, { quiet: true })));
    const applied = await rows<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      applied_steps_count: number;
    }>(
      url,
      'SELECT "migration_name", "checksum", "finished_at", "applied_steps_count" FROM "_prisma_migrations" ORDER BY "migration_name"',
    );
    expect(applied.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(
      postgresMigrations().map((m) => [m.name, m.checksum, 1]),
    );
    expect(applied.every((r) => r.finished_at !== null)).toBe(true);

    // The models' own DDL (prisma migrate diff from empty) applied to another empty database gives the same shape.
    const reference = await emptyDatabase(`r_${tag}`);
    const ddl = path.join(dir, "reference.sql");
    const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
    execFileSync(
      process.execPath,
      [
        prisma,
        "migrate",
        "diff",
        "--from-empty",
        "--to-schema-datamodel",
        POSTGRES_SCHEMA,
        "--script",
        "--output",
        ddl,
      ],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: reference },
        stdio: "pipe",
      },
    );
    await rows(reference, fs.readFileSync(ddl, "utf8"));
    expect(await rows(url, SHAPE)).toEqual(await rows(reference, SHAPE));
  });

  it("a migration that fails changes nothing and records nothing, and the next start says which one", async () => {
    const url = await emptyDatabase(`f_${tag}`);
    const broken = path.join(dir, "broken");
    fs.mkdirSync(path.join(broken, "20990101000000_ok"), { recursive: true });
    fs.mkdirSync(path.join(broken, "20990101000001_bad"), { recursive: true });
    fs.writeFileSync(
      path.join(broken, "20990101000000_ok", "migration.sql"),
      'CREATE TABLE "Ok" ("id" TEXT PRIMARY KEY);',
    );
    fs.writeFileSync(
      path.join(broken, "20990101000001_bad", "migration.sql"),
      'CREATE TABLE "Half" ("id" TEXT PRIMARY KEY);\nSELECT no_such_function();',
    );
    await expect(migratePostgres(url, { quiet: true, dir: broken })).rejects.toThrow(/20990101000001_bad failed/);
    const tables = await rows<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    expect(tables.map((t) => t.table_name)).toEqual(["Ok", "_prisma_migrations"]);
    expect(
      (await rows<{ migration_name: string }>(url, 'SELECT "migration_name" FROM "_prisma_migrations"')).map(
        (r) => r.migration_name,
      ),
    ).toEqual(["20990101000000_ok"]);
    await expect(migratePostgres(url, { quiet: true, dir: broken })).rejects.toThrow(/20990101000001_bad failed/);
  });
});
