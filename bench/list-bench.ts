/** GET /api/sessions at scale: 10,000 sessions and 1,000,000 events, the first page and filtered searches. */
import { createDb } from "../lib/db/client";
import { listSessions, type ListSessionsQuery } from "../lib/session/list-sessions";
import { median, quantile, round } from "./lib/stats";
import { seedSessions } from "./lib/seed-sessions";
import { tempDb } from "./lib/temp-db";

const SESSIONS = 10_000;
const EVENTS_PER_SESSION = 100;
const RUNS = 200;

async function time(db: ReturnType<typeof createDb>, query: ListSessionsQuery) {
  const ms: number[] = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const page = await listSessions(db, query);
    ms.push(performance.now() - t0);
    count = page.sessions.length;
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { query, rows: count, medianMs: round(median(ms)), p95Ms: round(quantile(sorted, 0.95)), targetP95Ms: 50 };
}

export async function benchList() {
  const t = tempDb("list");
  await t.db.$disconnect();
  const seeded = performance.now();
  seedSessions(t.file, { to: SESSIONS, eventsPerSession: EVENTS_PER_SESSION });
  const seedMs = performance.now() - seeded;
  const db = createDb(t.url);
  await listSessions(db, {}); // warm the connection and the query compiler
  const results = [
    await time(db, {}),
    await time(db, { q: "pagination" }),
    await time(db, { q: "billing handler", status: "idle" }),
    await time(db, { status: "awaiting_review", mode: "default" }),
    await time(db, { workspace: "/work/ws3", q: "module" }),
  ];
  await db.$disconnect();
  await t.dispose();
  return {
    sessions: SESSIONS,
    events: SESSIONS * EVENTS_PER_SESSION,
    seedSeconds: round(seedMs / 1000, 1),
    runsPerQuery: RUNS,
    results,
  };
}
