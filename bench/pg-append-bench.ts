/**
 * Event append on PostgreSQL: the app's appendEvents (Prisma's pg driver adapter, lib/db/sql.ts) against raw `pg`
 * on one connection writing the same rows, one append at a time:
 * - "app": appendEvents: the event rows, the search rows, the projection UPDATE guarded by lastSeq (whose trigger
 *   notifies other instances), in one transaction (the state comes from the process's hint, so no read per append).
 * - "raw": the same statements in the same order and transaction (BEGIN, INSERT events, INSERT search rows,
 *   UPDATE the projection with the lastSeq guard (the same trigger fires), COMMIT), the state folded in memory with the
 *   app's pure planAppend, as the SQLite `append` suite's raw side does. The ratio's target (≤ 3x) is against this.
 * - "rawInsert": only BEGIN, the INSERT of the event rows, COMMIT: the floor of any append.
 * Each run appends to a fresh session per side (in one database made for the suite), the sides taking turns in
 * blocks of 50 appends.
 */
import os from "node:os";
import pg from "pg";
import { createDb, type Db } from "../lib/db/client";
import { resetEnvCache } from "../lib/env";
import { appendEvents, planAppend } from "../lib/session/append-events";
import { createSession } from "../lib/session/create-session";
import type { NewEvent } from "../lib/session/log/events";
import { getSession } from "../lib/session/get-session";
import { projectionColumns } from "../lib/session/log/projection";
import { searchDocs } from "../lib/session/search-index";
import { tsvectorRows } from "../lib/session/search-index-pg";
import { eventsFor } from "./append-bench";
import { benchPostgres } from "./lib/pg";
import { median, round } from "./lib/stats";

const APPENDS = Number(process.env.BENCH_PG_APPEND_APPENDS ?? 1000);
const RUNS = Number(process.env.BENCH_PG_APPEND_RUNS ?? 7);
const BATCHES = (process.env.BENCH_PG_APPEND_BATCHES ?? "1,10").split(",").map(Number);
const WARMUP = 50;
const BLOCK = 50;

type Side = "app" | "raw" | "rawInsert";

async function newSession(db: Db): Promise<string> {
  const { id } = await createSession(db, {
    title: "bench",
    workspace: "/tmp",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  return id;
}

type Appender = (i: number) => Promise<unknown>;

/** The app's appendEvents on a fresh session. */
async function appAppender(db: Db, batch: number): Promise<Appender> {
  const id = await newSession(db);
  return (i) => appendEvents(db, id, eventsFor(i, batch));
}

const placeholders = (rows: number, cols: number, from = 1) =>
  Array.from(
    { length: rows },
    (_, r) => `(${Array.from({ length: cols }, (_, c) => `$${from + r * cols + c}`).join(", ")})`,
  ).join(", ");

/** Raw `pg` on a fresh session: the full equivalent of appendEvents' writes, or the event INSERT alone. */
async function rawAppender(db: Db, client: pg.Client, batch: number, insertOnly: boolean): Promise<Appender> {
  const id = await newSession(db);
  let state = (await getSession(db, id)).state;
  const append = async (events: NewEvent[]) => {
    const at = new Date();
    const planned = planAppend(state, events, at);
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO "SessionEvent" ("sessionId", "seq", "type", "payload", "createdAt") VALUES ${placeholders(planned.events.length, 5)}`,
      planned.events.flatMap((e) => [id, e.seq, e.type, JSON.stringify(e.payload), at]),
    );
    if (!insertOnly) {
      const rows = searchDocs(planned.events).flatMap((d) => tsvectorRows(d.body));
      if (rows.length > 0) {
        const values = rows.map((_, j) => `($${2 * j + 1}, CAST($${2 * j + 2} AS tsvector))`).join(", ");
        await client.query(
          `INSERT INTO "SessionSearch" ("sessionId", "terms") VALUES ${values}`,
          rows.flatMap((t) => [id, t]),
        );
      }
      const c = projectionColumns(planned.state, at);
      const r = await client.query(
        'UPDATE "Session" SET "permissionMode" = $1, "prePlanMode" = $2, "planActive" = $3, "planPending" = $4, "status" = $5, "pendingReviewId" = $6, ' +
          '"pendingAsks" = $7, "state" = $8, "lastSeq" = $9, "lastActivityAt" = $10, "updatedAt" = $11 WHERE "id" = $12 AND "lastSeq" = $13',
        [
          c.permissionMode,
          c.prePlanMode,
          c.planActive,
          c.planPending,
          c.status,
          c.pendingReviewId,
          c.pendingAsks,
          c.state,
          c.lastSeq,
          at,
          at,
          id,
          state.lastSeq,
        ],
      );
      if (r.rowCount !== 1) throw new Error("conflict");
    }
    await client.query("COMMIT");
    state = planned.state;
  };
  return (i) => append(eventsFor(i, batch));
}

/**
 * One run: a fresh session per side, warmed, then APPENDS appends each in blocks of BLOCK, the sides taking
 * turns block by block (rotating who goes first), so a noisy moment on a shared machine hits all three.
 */
async function oneRun(db: Db, client: pg.Client, batch: number, r: number): Promise<Record<Side, number>> {
  const sides: Record<Side, Appender> = {
    app: await appAppender(db, batch),
    raw: await rawAppender(db, client, batch, false),
    rawInsert: await rawAppender(db, client, batch, true),
  };
  const order: Side[] = ["app", "raw", "rawInsert"];
  const ms: Record<Side, number> = { app: 0, raw: 0, rawInsert: 0 };
  for (const side of order) for (let i = 0; i < WARMUP; i++) await sides[side](i);
  for (let b = 0; b * BLOCK < APPENDS; b++) {
    for (let k = 0; k < order.length; k++) {
      const side = order[(r + b + k) % order.length] as Side;
      const start = performance.now();
      for (let i = b * BLOCK; i < Math.min(APPENDS, (b + 1) * BLOCK); i++) await sides[side](WARMUP + i);
      ms[side] += performance.now() - start;
    }
  }
  return { app: (ms.app * 1000) / APPENDS, raw: (ms.raw * 1000) / APPENDS, rawInsert: (ms.rawInsert * 1000) / APPENDS };
}

const range = (xs: number[]) => [round(Math.min(...xs), 2), round(Math.max(...xs), 2)];

export async function benchPgAppend() {
  const server = await benchPostgres();
  const url = await server.database("append");
  Object.assign(process.env, { DATABASE_URL: url });
  resetEnvCache();
  const db = createDb(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const results = [];
  const loadBefore = os.loadavg()[0] as number;
  try {
    for (const batch of BATCHES) {
      const us: Record<Side, number[]> = { app: [], raw: [], rawInsert: [] };
      for (let r = 0; r < RUNS; r++) {
        const run = await oneRun(db, client, batch, r);
        for (const side of ["app", "raw", "rawInsert"] as const) us[side].push(run[side]);
        process.stderr.write(
          `  ${batch} event(s), run ${r + 1}/${RUNS}: app ${round(us.app[r] as number, 0)} µs, raw ${round(us.raw[r] as number, 0)} µs, insert only ${round(us.rawInsert[r] as number, 0)} µs\n`,
        );
      }
      const ratio = us.app.map((a, i) => a / (us.raw[i] as number));
      const ratioInsert = us.app.map((a, i) => a / (us.rawInsert[i] as number));
      results.push({
        eventsPerAppend: batch,
        appMicrosPerAppend: round(median(us.app), 1),
        rawMicrosPerAppend: round(median(us.raw), 1),
        rawInsertOnlyMicrosPerAppend: round(median(us.rawInsert), 1),
        ratio: round(median(ratio), 2),
        ratioRange: range(ratio),
        ratioToInsertOnly: round(median(ratioInsert), 2),
        ratioToInsertOnlyRange: range(ratioInsert),
        ratioTarget: 3,
      });
    }
  } finally {
    await client.end();
    await db.$disconnect();
    await server.dispose();
  }
  // Others' work on the machine (1-minute load average at the start and the end): the figures are noisier the higher.
  const loadAverage = [round(loadBefore, 2), round(os.loadavg()[0] as number, 2)];
  return {
    name: "event-append-postgres-vs-raw-pg",
    database: server.source,
    loadAverage,
    runs: RUNS,
    appendsPerRun: APPENDS,
    results,
  };
}
