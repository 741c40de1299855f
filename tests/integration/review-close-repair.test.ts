// Issue 25's repair of the review rows an earlier close left wrong: the data-only migration review_close_repair,
// run on a database holding each kind of drift, on SQLite and on PostgreSQL (the closes themselves are
// review-close.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { migratePostgres, POSTGRES_MIGRATIONS } from "../../lib/db/migrate";
import { onPostgres } from "../helpers/db";

const REPAIR = "20261204000000_review_close_repair";
const SQLITE_MIGRATIONS = path.resolve(import.meta.dirname, "../../prisma/migrations");
const T0 = "2026-12-01T10:00:00.000Z";
const T1 = "2026-12-01T11:00:00.000Z";
const T2 = "2026-12-01T12:00:00.000Z";

type Exec = (sql: string, args?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Sessions as the old code left them: each close but the desk's left its version or its plan "submitted". */
async function writeDrift(exec: Exec): Promise<void> {
  const session = (id: string, model: string) =>
    exec(
      'INSERT INTO "Session" ("id", "title", "workspace", "model", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)',
      [id, id, "/w", model, T0, T0],
    );
  const plan = (id: string, sessionId: string, status: string, currentVersion: number) =>
    exec(
      'INSERT INTO "Plan" ("id", "sessionId", "slug", "filePath", "status", "currentVersion", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [id, sessionId, id, `/w/${id}.md`, status, currentVersion, T0, T0],
    );
  const version = (planId: string, v: number, status: string, extra: [string | null, string | null, string | null]) =>
    exec(
      'INSERT INTO "PlanVersion" ("id", "planId", "version", "content", "filePath", "status", "decision", "decidedBy", "decidedAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [`${planId}_v${v}`, planId, v, `plan ${v}`, `/w/${planId}.md`, status, ...extra, T0],
    );
  const review = (
    id: string,
    sessionId: string,
    planId: string,
    v: number,
    status: string,
    close: [string, string | null, string, string] | null,
  ) =>
    exec(
      'INSERT INTO "Review" ("id", "sessionId", "kind", "status", "pendingKey", "planId", "planVersion", "decision", "feedback", "decidedBy", "decidedAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        id,
        sessionId,
        "plan-review",
        status,
        close ? null : sessionId,
        planId,
        v,
        ...(close ?? [null, null, null, null]),
        T0,
      ],
    );
  // Answered in the terminal: the version said so, the plan still "submitted".
  await session("s_term", "external");
  await plan("p_term", "s_term", "submitted", 1);
  await version("p_term", 1, "answered_elsewhere", [null, "terminal", T1]);
  await review("r_term", "s_term", "p_term", 1, "answered_elsewhere", [
    "approved",
    "Approved in the agent's own terminal.",
    "terminal",
    T1,
  ]);
  // Superseded while pending; the newer version still waits.
  await session("s_sup", "external");
  await plan("p_sup", "s_sup", "submitted", 2);
  await version("p_sup", 1, "submitted", [null, null, null]);
  await version("p_sup", 2, "submitted", [null, null, null]);
  await review("r_sup1", "s_sup", "p_sup", 1, "abandoned", ["superseded", null, "claude-code", T1]);
  await review("r_sup2", "s_sup", "p_sup", 2, "pending", null);
  // Superseded, then the newer version answered in the terminal.
  await session("s_both", "external");
  await plan("p_both", "s_both", "submitted", 2);
  await version("p_both", 1, "submitted", [null, null, null]);
  await version("p_both", 2, "answered_elsewhere", [null, "terminal", T2]);
  await review("r_both1", "s_both", "p_both", 1, "abandoned", ["superseded", null, "claude-code", T1]);
  await review("r_both2", "s_both", "p_both", 2, "answered_elsewhere", [
    "rejected",
    "Rejected in the agent's own terminal.",
    "terminal",
    T2,
  ]);
  // Rows that were never drifted: an approval on the desk, and a plan that really waits.
  await session("s_ok", "scripted");
  await plan("p_ok", "s_ok", "approved", 1);
  await version("p_ok", 1, "approved", ["approve", "user", T1]);
  await review("r_ok", "s_ok", "p_ok", 1, "approved", ["approve", null, "user", T1]);
  await session("s_wait", "scripted");
  await plan("p_wait", "s_wait", "submitted", 1);
  await version("p_wait", 1, "submitted", [null, null, null]);
  await review("r_wait", "s_wait", "p_wait", 1, "pending", null);
}

/** A stored time as ISO text: SQLite keeps the text written, PostgreSQL's timestamp comes as text without a zone (UTC). */
const iso = (v: unknown) =>
  v === null ? null : new Date(/Z$/.test(String(v)) ? String(v) : `${String(v).replace(" ", "T")}Z`).toISOString();

async function readRepaired(exec: Exec) {
  const plans = await exec('SELECT "id", "status" FROM "Plan" ORDER BY "id"');
  const versions = await exec(
    'SELECT "id", "status", "decision", "feedback", "decidedBy", "decidedAt" FROM "PlanVersion" ORDER BY "id"',
  );
  return {
    plans: Object.fromEntries(plans.map((p) => [p.id, p.status])),
    versions: Object.fromEntries(
      versions.map((v) => [v.id, [v.status, v.decision, v.feedback, v.decidedBy, iso(v.decidedAt)]]),
    ),
  };
}

const REPAIRED = {
  plans: {
    p_both: "answered_elsewhere",
    p_ok: "approved",
    p_sup: "submitted",
    p_term: "answered_elsewhere",
    p_wait: "submitted",
  },
  versions: {
    p_both_v1: ["abandoned", "superseded", null, "claude-code", T1],
    p_both_v2: ["answered_elsewhere", "rejected", "Rejected in the agent's own terminal.", "terminal", T2],
    p_ok_v1: ["approved", "approve", null, "user", T1],
    p_sup_v1: ["abandoned", "superseded", null, "claude-code", T1],
    p_sup_v2: ["submitted", null, null, null, null],
    p_term_v1: ["answered_elsewhere", "approved", "Approved in the agent's own terminal.", "terminal", T1],
    p_wait_v1: ["submitted", null, null, null, null],
  },
};

describe("the review_close_repair migration", () => {
  it("the migration is the same data-only SQL on both engines, after every schema change before it, and nothing later rewrites those rows", () => {
    const sqlite = fs.readFileSync(path.join(SQLITE_MIGRATIONS, REPAIR, "migration.sql"), "utf8");
    const postgres = fs.readFileSync(path.join(POSTGRES_MIGRATIONS, REPAIR, "migration.sql"), "utf8");
    expect(postgres).toBe(sqlite);
    expect(sqlite).not.toMatch(/\b(CREATE|ALTER|DROP)\b/i);
    for (const dir of [SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS]) {
      const names = fs
        .readdirSync(dir)
        .filter((n) => fs.existsSync(path.join(dir, n, "migration.sql")))
        .sort();
      expect(names).toContain(REPAIR);
      for (const later of names.filter((n) => n > REPAIR)) {
        const text = fs.readFileSync(path.join(dir, later, "migration.sql"), "utf8");
        expect(text, later).not.toMatch(/\bUPDATE\s+"(Plan|PlanVersion|Review)"/i);
      }
    }
  });

  it.skipIf(onPostgres)(
    "SQLite: rows drifted before it are repaired; rows that were right are left alone",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-repair-"));
      const db = new Database(path.join(dir, "before.db"));
      try {
        const names = fs
          .readdirSync(SQLITE_MIGRATIONS)
          .filter((n) => fs.existsSync(path.join(SQLITE_MIGRATIONS, n, "migration.sql")))
          .sort();
        const sql = (name: string) => fs.readFileSync(path.join(SQLITE_MIGRATIONS, name, "migration.sql"), "utf8");
        // Migrated up to the migration before the repair, as `prisma migrate deploy` runs each script.
        for (const name of names.filter((n) => n < REPAIR)) db.exec(sql(name));
        const exec: Exec = async (text, args = []) => {
          const st = db.prepare(text);
          return st.reader ? (st.all(...args) as Record<string, unknown>[]) : (st.run(...args), []);
        };
        await writeDrift(exec);
        db.exec(sql(REPAIR));
        expect(await readRepaired(exec)).toEqual(REPAIRED);
        // Applied again (a copy restored from before it), it changes nothing more.
        db.exec(sql(REPAIR));
        expect(await readRepaired(exec)).toEqual(REPAIRED);
      } finally {
        db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!onPostgres)(
    "PostgreSQL: rows drifted before it are repaired; rows that were right are left alone",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-repair-"));
      const name = `repair_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: inject("pgUrl") });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const url = new URL(inject("pgUrl"));
      url.pathname = `/${name}`;
      // Timestamps as the text stored (UTC), not parsed in this process's zone.
      const client = new pg.Client({
        connectionString: url.toString(),
        types: {
          getTypeParser: (oid, format) => (oid === 1114 ? (v: string) => v : pg.types.getTypeParser(oid, format)),
        },
      });
      try {
        // The committed migrations up to the one before the repair, applied as a server start applies them.
        const before = path.join(dir, "before");
        for (const m of fs.readdirSync(POSTGRES_MIGRATIONS).filter((n) => n < REPAIR))
          fs.cpSync(path.join(POSTGRES_MIGRATIONS, m), path.join(before, m), { recursive: true });
        await migratePostgres(url.toString(), { quiet: true, dir: before });
        await client.connect();
        const exec: Exec = async (text, args = []) => {
          let n = 0;
          return (
            await client.query(
              text.replace(/\?/g, () => `$${++n}`),
              args,
            )
          ).rows;
        };
        await writeDrift(exec);
        // The next start applies the repair (and the migrations after it).
        await migratePostgres(url.toString(), { quiet: true });
        const applied = await exec('SELECT "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name" DESC');
        expect(applied.map((r) => r.migration_name)).toContain(REPAIR);
        expect(await readRepaired(exec)).toEqual(REPAIRED);
      } finally {
        await client.end().catch(() => undefined);
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
