import "server-only";
import fs from "node:fs";
import { createDb } from "./client";
import { migrateDatabase } from "./migrate";
import { isPostgresUrl, isSqliteUrl, sqlitePathFromUrl } from "./sqlite-path";
import { type Row, type SqlArg, type SqlRunner, sqlTransaction } from "./sql";
import { emptyState, foldEvents, type SessionState } from "../session/log/fold";
import { projectionColumns, stateFromRow } from "../session/log/projection";
import { searchDocs, type SearchDoc } from "../session/log/search-text";
import { readEvents } from "./session-log/read-events";
import { indexDocs } from "./session-log/search-rows";
import {
  type Column,
  CopyRefused,
  canonical,
  kindOf,
  MOD,
  redactUrl,
  rowHash,
  TABLES,
  toValue,
  type Value,
} from "./copy-values";

// Session → Session references: rows go in without them, and they are set once every session is in.
const SELF_REFS = new Set(["parentId", "forkedFromId"]);
// The search index is rebuilt on the target (FTS5 is not copied), so "searchDocs" counts the target's own documents.
const REBUILT = "searchDocs";
const MAX_ARGS = 30_000; // PostgreSQL takes at most 65,535 bound values per statement
const MAX_PROBLEMS = 50;
const COPY_LOCK = 7_260_318_110_002;

export type TableCheck = { table: string; source: number; target: number; sameRows: boolean };
/** ok: counts, row contents and every session's fold agree (only then was the copy committed). */
export type CopyReport = {
  ok: boolean;
  tables: TableCheck[];
  sessions: number;
  searchDocs: number;
  problems: string[];
};
export type CopyOptions = { from: string; to: string; batchSize?: number; onProgress?: (line: string) => void };

class Rollback extends Error {
  constructor(readonly report: CopyReport) {
    super("verification failed");
  }
}

const q = (name: string) => `"${name}"`;

/** A table in primary-key order, `size` rows a page: never more than one page in memory. */
async function* pages(
  run: SqlRunner,
  table: string,
  cols: readonly string[],
  key: readonly string[],
  size: number,
  where = "1 = 1",
): AsyncGenerator<Row[]> {
  const k = key.map(q).join(", ");
  let after: SqlArg[] | null = null;
  for (;;) {
    const past = after ? `(${k}) > (${key.map(() => "?").join(", ")})` : "1 = 1";
    const rows: Row[] = await run.query(
      `SELECT ${cols.map(q).join(", ")} FROM ${q(table)} WHERE ${where} AND ${past} ORDER BY ${k} LIMIT ?`,
      [...(after ?? []), size],
    );
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    const last = rows[rows.length - 1] as Row;
    after = key.map((c) => last[c] as SqlArg);
  }
}

async function count(run: SqlRunner, table: string): Promise<number> {
  const [row] = await run.query<{ n: number }>(`SELECT count(*) AS "n" FROM ${q(table)}`);
  return Number(row?.n ?? 0);
}

/** The target's columns (it was just migrated: it is the schema), checked against the source's. */
async function columnsOf(src: SqlRunner, dst: SqlRunner, table: string): Promise<Column[]> {
  const rows = await dst.query<{ name: string; type: string }>(
    'SELECT "column_name"::text AS "name", "data_type"::text AS "type" FROM information_schema.columns WHERE "table_schema" = current_schema() AND "table_name" = ? ORDER BY "ordinal_position"',
    [table],
  );
  const cols = rows.map((r) => ({ name: String(r.name), kind: kindOf(String(r.type), `${table}.${String(r.name)}`) }));
  const have = new Set(
    (await src.query<{ name: string }>('SELECT "name" FROM pragma_table_info(?)', [table])).map((r) => r.name),
  );
  const missing = cols.filter((c) => !have.has(c.name)).map((c) => c.name);
  const extra = [...have].filter((n) => !cols.some((c) => c.name === n));
  if (cols.length === 0 || missing.length > 0 || extra.length > 0) {
    const what = [
      missing.length ? `missing ${missing.join(", ")}` : "",
      extra.length ? `unknown ${extra.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("; ");
    throw new CopyRefused(
      `table ${table} of the source does not match this version's schema (${what || "no such table on the target"}): migrate the source first (DATABASE_URL=<from> npm run db:migrate)`,
    );
  }
  return cols;
}

async function copyTable(
  src: SqlRunner,
  dst: SqlRunner,
  table: string,
  key: readonly string[],
  cols: Column[],
  size: number,
): Promise<{ rows: number; digest: bigint }> {
  let rows = 0;
  let digest = 0n;
  const names = cols.map((c) => c.name);
  const insert = (n: number) =>
    `INSERT INTO ${q(table)} (${names.map(q).join(", ")}) VALUES ${Array.from({ length: n }, () => `(${names.map(() => "?").join(", ")})`).join(", ")}`;
  for await (const page of pages(src, table, names, key, size)) {
    const args: Value[] = [];
    for (const row of page) {
      const where = `${table} ${key.map((k) => String(row[k])).join("/")}`;
      const values = cols.map((c) => toValue(c.kind, row[c.name], `${where}.${c.name}`));
      digest = (digest + rowHash(values.filter((_v, i) => !(table === "Session" && names[i] === REBUILT)))) % MOD;
      args.push(
        ...(table === "Session"
          ? values.map((v, i) => (SELF_REFS.has(names[i] ?? "") ? null : names[i] === REBUILT ? 0 : v))
          : values),
      );
    }
    await dst.execute(insert(page.length), args);
    rows += page.length;
  }
  if (table === "Session") {
    const refs = ["id", ...SELF_REFS];
    for await (const page of pages(
      src,
      "Session",
      refs,
      ["id"],
      size,
      '("parentId" IS NOT NULL OR "forkedFromId" IS NOT NULL)',
    )) {
      await dst.execute(
        `UPDATE "Session" AS s SET "parentId" = v."p", "forkedFromId" = v."f" FROM (VALUES ${page.map(() => "(?, ?, ?)").join(", ")}) AS v("id", "p", "f") WHERE s."id" = v."id"`,
        page.flatMap((r) => refs.map((c) => (r[c] ?? null) as SqlArg)),
      );
    }
  }
  return { rows, digest };
}

async function digestOf(
  run: SqlRunner,
  table: string,
  key: readonly string[],
  cols: Column[],
  size: number,
): Promise<bigint> {
  let digest = 0n;
  const kept = cols.filter((c) => !(table === "Session" && c.name === REBUILT));
  for await (const page of pages(
    run,
    table,
    kept.map((c) => c.name),
    key,
    size,
  )) {
    for (const row of page)
      digest =
        (digest + rowHash(kept.map((c) => toValue(c.kind, row[c.name], `${table}.${c.name} on the target`)))) % MOD;
  }
  return digest;
}

type SessionRow = Row & { id: string; state: string; lastSeq: number };
const PROJECTED = [
  "permissionMode",
  "prePlanMode",
  "planActive",
  "planPending",
  "status",
  "pendingReviewId",
  "pendingAsks",
  "lastSeq",
] as const;

/**
 * One session: its log read page by page from both sides (equal), folded on both sides (equal, and equal to the
 * Session row's projection), and its search documents indexed on the target. Returns a problem, or null.
 */
async function checkSession(
  src: SqlRunner,
  dst: SqlRunner,
  row: SessionRow,
  size: number,
): Promise<{ problem: string | null; docs: number }> {
  const id = row.id;
  let a: SessionState = emptyState;
  let b: SessionState = emptyState;
  let after = 0;
  let docs = 0;
  try {
    for (;;) {
      const x = await readEvents(src.conn, id, { after, limit: size });
      const y = await readEvents(dst.conn, id, { after, limit: size });
      if (canonical(x) !== canonical(y))
        return { problem: `session ${id}: events after seq ${after} differ between source and target`, docs };
      const last = x[x.length - 1];
      if (!last) break;
      a = foldEvents(x, Infinity, a);
      b = foldEvents(y, Infinity, b);
      const found = searchDocs(y);
      await indexDocs(dst.conn, id, found);
      docs += found.length;
      after = last.seq;
      if (x.length < size) break;
    }
    if (canonical(a) !== canonical(b))
      return { problem: `session ${id}: the fold of the source's log differs from the target's`, docs };
    const stored = stateFromRow(row);
    if (canonical({ ...stored, steps: stored.steps ?? b.steps }) !== canonical(b))
      return { problem: `session ${id}: the stored state (Session.state) is not the fold of its log`, docs };
    const columns: Record<string, unknown> = projectionColumns(b, new Date(0));
    const off = PROJECTED.filter((c) => canonical(row[c]) !== canonical(columns[c]));
    if (off.length > 0)
      return { problem: `session ${id}: projection columns ${off.join(", ")} do not match the fold of its log`, docs };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { problem: `session ${id}: unreadable JSON (${error.message.slice(0, 120)})`, docs };
  }
  const plans = await dst.query<{ content: string }>(
    'SELECT v."content" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" WHERE p."sessionId" = ? ORDER BY p."id", v."version"',
    [id],
  );
  const planDocs: SearchDoc[] = plans.filter((p) => p.content.trim()).map((p) => ({ kind: "plan", body: p.content }));
  await indexDocs(dst.conn, id, planDocs);
  return { problem: null, docs: docs + planDocs.length };
}

async function copyAll(src: SqlRunner, dst: SqlRunner, opts: CopyOptions, to: string): Promise<CopyReport> {
  const size = Math.max(1, Math.min(opts.batchSize ?? 500, 1000));
  const say = opts.onProgress ?? (() => undefined);
  await dst.query(`SELECT pg_advisory_xact_lock(?)::text AS "locked"`, [COPY_LOCK]); // two copies into one target: one waits, then finds it filled
  const filled: string[] = [];
  for (const t of TABLES) {
    const n = await count(dst, t.name);
    if (n > 0) filled.push(`${t.name}: ${n}`);
  }
  if (filled.length > 0)
    throw new CopyRefused(
      `the target ${redactUrl(to)} is not empty (${filled.join(", ")} rows): db:copy only copies into an empty database`,
    );
  const columns = new Map<string, Column[]>();
  for (const t of TABLES) columns.set(t.name, await columnsOf(src, dst, t.name));
  const copied = new Map<string, { rows: number; digest: bigint }>();
  for (const t of TABLES) {
    const cols = columns.get(t.name) ?? [];
    const perPage = Math.max(1, Math.min(size, Math.floor(MAX_ARGS / cols.length)));
    copied.set(t.name, await copyTable(src, dst, t.name, t.key, cols, perPage));
    say(`copied ${t.name}: ${copied.get(t.name)?.rows ?? 0} rows`);
  }
  const problems: string[] = [];
  let more = 0;
  const problem = (p: string) => (problems.length < MAX_PROBLEMS ? problems.push(p) : more++);
  const tables: TableCheck[] = [];
  for (const t of TABLES) {
    const [source, target] = [await count(src, t.name), await count(dst, t.name)];
    const done = copied.get(t.name);
    const sameRows =
      done !== undefined &&
      done.rows === source &&
      done.digest === (await digestOf(dst, t.name, t.key, columns.get(t.name) ?? [], size));
    if (source !== target) problem(`${t.name}: ${source} rows in the source, ${target} in the target`);
    else if (!sameRows) problem(`${t.name}: the rows' contents differ between source and target`);
    tables.push({ table: t.name, source, target, sameRows });
  }
  say("compared every table's row counts and contents");
  let sessions = 0;
  let docs = 0;
  for await (const page of pages(dst, "Session", ["id", "state", ...PROJECTED], ["id"], size)) {
    for (const row of page) {
      const checked = await checkSession(src, dst, row as SessionRow, size);
      if (checked.problem) problem(checked.problem);
      docs += checked.docs;
      sessions++;
    }
    say(`verified ${sessions} sessions`);
  }
  if (more > 0) problems.push(`… and ${more} more`);
  return { ok: problems.length === 0, tables, sessions, searchDocs: docs, problems };
}

/**
 * Copies a SQLite database into an empty PostgreSQL one (migrated first), in one transaction on each side: a
 * consistent snapshot of the source, and a target that gets everything or nothing. Before committing, row counts
 * and contents are compared table by table and every session's log is folded on both sides; any mismatch rolls
 * the target back (ok: false, with the problems). The search index is rebuilt from the copied logs and plans.
 */
export async function copyDatabase(opts: CopyOptions): Promise<CopyReport> {
  const { from, to } = opts;
  if (!isSqliteUrl(from)) throw new CopyRefused(`--from must be a SQLite database (file:…), not ${redactUrl(from)}`);
  if (!isPostgresUrl(to))
    throw new CopyRefused(`--to must be a PostgreSQL database (postgresql://…), not ${redactUrl(to)}`);
  const file = sqlitePathFromUrl(from);
  if (!fs.existsSync(file)) throw new CopyRefused(`the source database ${file} does not exist`);
  await migrateDatabase(to, { quiet: true });
  const source = createDb(`file:${file}`);
  const target = createDb(to);
  try {
    return await sqlTransaction(source, (src) =>
      sqlTransaction(target, async (dst) => {
        const report = await copyAll(src, dst, opts, to);
        if (!report.ok) throw new Rollback(report);
        return report;
      }),
    );
  } catch (error) {
    if (error instanceof Rollback) return error.report;
    throw error;
  } finally {
    await Promise.all([source.$disconnect(), target.$disconnect()]);
  }
}
