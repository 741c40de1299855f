/**
 * GET /api/sessions?q= at 1k, 10k and 50k sessions (100 events each): a word in every session ("the", in every
 * message), a word in ~0.1% of them ("zanzibar", old and new alike), and the page after each via its cursor; then
 * the hard cases for stopping early: a word only the oldest 1,000 sessions use (10 messages each), a prefix under
 * a filter, two words, and a word nowhere. One database grows from size to size, so 50k is seeded once.
 */
import { createDb } from "../lib/db/client";
import { listSessions, type ListSessionsQuery } from "../lib/session/list-sessions";
import { median, quantile, round } from "./lib/stats";
import { seedSessions } from "./lib/seed-sessions";
import { tempDb } from "./lib/temp-db";

const SIZES = [1_000, 10_000, 50_000];
const EVENTS_PER_SESSION = 100;
const RUNS = 100;
const LIMIT = 20;
const RARE = { word: "zanzibar", has: (i: number) => i % 1000 === 7 };
const OLD = { word: "legacy", has: (i: number) => i < 1000 };

async function time(db: ReturnType<typeof createDb>, name: string, query: ListSessionsQuery) {
  const ms: number[] = [];
  let page = await listSessions(db, query); // warm this query's statements
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    page = await listSessions(db, query);
    ms.push(performance.now() - t0);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    name,
    rows: page.sessions.length,
    more: page.nextCursor !== null,
    p50Ms: round(median(ms)),
    p95Ms: round(quantile(sorted, 0.95)),
    targetP95Ms: 50,
  };
}

/** The first page of `q` and, when there is one, the page after it. */
async function firstAndNext(db: ReturnType<typeof createDb>, name: string, query: ListSessionsQuery) {
  const first = await time(db, name, { ...query, limit: LIMIT });
  const { nextCursor } = await listSessions(db, { ...query, limit: LIMIT });
  return nextCursor
    ? [first, await time(db, `${name}, next page`, { ...query, limit: LIMIT, cursor: nextCursor })]
    : [first];
}

export async function benchSearch() {
  const t = tempDb("search");
  await t.db.$disconnect();
  const sizes = [];
  let seeded = 0;
  for (const size of SIZES) {
    const t0 = performance.now();
    seedSessions(t.file, { from: seeded, to: size, eventsPerSession: EVENTS_PER_SESSION, markers: [RARE, OLD] });
    const seedSeconds = round((performance.now() - t0) / 1000, 1);
    seeded = size;
    const db = createDb(t.url);
    const results = [
      ...(await firstAndNext(db, "common word", { q: "the" })),
      ...(await firstAndNext(db, "rare word", { q: RARE.word })),
      await time(db, "word of the oldest 1,000 sessions", { q: OLD.word, limit: LIMIT }),
      await time(db, "common prefix, filtered", { q: "pag", status: "awaiting_review", limit: LIMIT }),
      await time(db, "common and rare word", { q: `the ${RARE.word}`, limit: LIMIT }),
      await time(db, "absent word", { q: "xylophone", limit: LIMIT }),
    ];
    await db.$disconnect();
    sizes.push({ sessions: size, events: size * EVENTS_PER_SESSION, seedSeconds, results });
  }
  await t.dispose();
  return { runsPerQuery: RUNS, limit: LIMIT, sizes };
}
