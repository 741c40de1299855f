/**
 * Event append through Prisma against raw better-sqlite3 writing the same rows (events, projection, search
 * index) with the same transaction shape, the two interleaved run by run. "prisma" is the app's appendEvents: portable SQL on Prisma's driver adapter (the
 * connection Prisma Client uses). "prismaClient" is the same SQL sent through Prisma Client
 * ($executeRawUnsafe in an interactive transaction), reported so the cost of Prisma 6's per-call query
 * compilation stays visible.
 */
import Database from "better-sqlite3";
import { appendEvents, appendEventsInTx } from "../lib/session/append-events";
import { createSession } from "../lib/session/create-session";
import type { NewEvent } from "../lib/session/log/events";
import { planAppend } from "../lib/session/append-events";
import { projectionColumns } from "../lib/session/log/projection";
import { getSession } from "../lib/session/get-session";
import { DOCS_PER_SESSION, searchDocs } from "../lib/session/search-index";
import { median, repeat, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";
import { withTransaction } from "../lib/db/client";

const APPENDS = 1000;
const RUNS = 5;

export function eventsFor(i: number, batch: number): NewEvent[] {
  return Array.from({ length: batch }, (_, k) =>
    (i + k) % 3 === 0
      ? { type: "tool.called", payload: { callId: `c${i}-${k}`, tool: "read", input: { path: "src/todo.ts" } } }
      : {
          type: "message.assistant",
          payload: { text: `step ${i}.${k}: reading the store before planning the change` },
        },
  );
}

async function prismaRun(batch: number): Promise<number> {
  const t = tempDb("append-prisma");
  const { id } = await createSession(t.db, {
    title: "bench",
    workspace: "/tmp",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  for (let i = 0; i < 50; i++) await appendEvents(t.db, id, eventsFor(i, batch));
  const start = performance.now();
  for (let i = 0; i < APPENDS; i++) await appendEvents(t.db, id, eventsFor(i, batch));
  const micros = ((performance.now() - start) * 1000) / APPENDS;
  await t.dispose();
  return micros;
}

async function clientRun(batch: number): Promise<number> {
  const t = tempDb("append-client");
  const { id } = await createSession(t.db, {
    title: "bench",
    workspace: "/tmp",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  const n = Math.floor(APPENDS / 5);
  for (let i = 0; i < 20; i++) await withTransaction(t.db, (run) => appendEventsInTx(run, id, eventsFor(i, batch)));
  const start = performance.now();
  for (let i = 0; i < n; i++) await withTransaction(t.db, (run) => appendEventsInTx(run, id, eventsFor(i, batch)));
  const micros = ((performance.now() - start) * 1000) / n;
  await t.dispose();
  return micros;
}

async function rawRun(batch: number): Promise<number> {
  const t = tempDb("append-raw");
  const { id } = await createSession(t.db, {
    title: "bench",
    workspace: "/tmp",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  let state = (await getSession(t.db, id)).state;
  await t.db.$disconnect();
  const sqlite = new Database(t.file);
  const insert = sqlite.prepare(
    'INSERT INTO "SessionEvent" ("sessionId","seq","type","payload","createdAt") VALUES (?,?,?,?,?)',
  );
  const update = sqlite.prepare(
    'UPDATE "Session" SET "permissionMode"=?,"prePlanMode"=?,"planActive"=?,"planPending"=?,"status"=?,"pendingReviewId"=?,"pendingAsks"=?,"state"=?,"lastSeq"=?,"lastActivityAt"=? WHERE "id"=? AND "lastSeq"=?',
  );
  const bump = sqlite.prepare<[number, string], { searchKey: number; searchDocs: number }>(
    'UPDATE "Session" SET "searchDocs" = "searchDocs" + ? WHERE "id" = ? RETURNING "searchKey", "searchDocs"',
  );
  const doc = sqlite.prepare('INSERT INTO "SessionSearch" (rowid, "body") VALUES (?, ?)');
  const append = sqlite.transaction((events: NewEvent[]) => {
    const at = new Date();
    const planned = planAppend(state, events, at);
    for (const e of planned.events) insert.run(id, e.seq, e.type, JSON.stringify(e.payload), at.getTime());
    const docs = searchDocs(planned.events);
    if (docs.length > 0) {
      const row = bump.get(docs.length, id);
      if (!row) throw new Error("no session");
      const first = row.searchKey * DOCS_PER_SESSION + row.searchDocs - docs.length;
      docs.forEach((d, j) => doc.run(first + j, d.body));
    }
    const c = projectionColumns(planned.state, at);
    const r = update.run(
      c.permissionMode,
      c.prePlanMode,
      c.planActive ? 1 : 0,
      c.planPending ? 1 : 0,
      c.status,
      c.pendingReviewId,
      c.pendingAsks,
      c.state,
      c.lastSeq,
      at.getTime(),
      id,
      state.lastSeq,
    );
    if (r.changes !== 1) throw new Error("conflict");
    state = planned.state;
  });
  for (let i = 0; i < 50; i++) append(eventsFor(i, batch));
  const start = performance.now();
  for (let i = 0; i < APPENDS; i++) append(eventsFor(i, batch));
  const micros = ((performance.now() - start) * 1000) / APPENDS;
  sqlite.close();
  await t.dispose();
  return micros;
}

export async function benchAppend() {
  const results = [];
  for (const batch of [1, 10, 100]) {
    // Each run measures both sides back to back (in alternating order), so a noisy moment hits both.
    const prisma: number[] = [];
    const raw: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      if (r % 2 === 0) prisma.push(await prismaRun(batch)), raw.push(await rawRun(batch));
      else raw.push(await rawRun(batch)), prisma.push(await prismaRun(batch));
    }
    const client = await repeat(3, () => clientRun(batch));
    const ratios = prisma.map((p, i) => p / (raw[i] as number));
    results.push({
      eventsPerAppend: batch,
      prismaMicrosPerAppend: round(median(prisma), 1),
      rawMicrosPerAppend: round(median(raw), 1),
      ratio: round(median(ratios), 2),
      ratioRange: [round(Math.min(...ratios), 2), round(Math.max(...ratios), 2)],
      prismaClientMicrosPerAppend: round(median(client), 1),
      prismaClientRatio: round(median(client) / median(raw), 2),
      ratioTarget: 3,
    });
  }
  return { name: "event-append-prisma-vs-raw", runs: RUNS, appendsPerRun: APPENDS, results };
}
