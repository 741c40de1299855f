/** GET /api/sessions at scale: 10,000 sessions and 1,000,000 events, the first page and filtered searches. */
import Database from "better-sqlite3";
import { createDb } from "../lib/db/client";
import { listSessions, type ListSessionsQuery } from "../lib/session/list-sessions";
import { DOCS_PER_SESSION } from "../lib/session/search-index";
import { median, quantile, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";

const SESSIONS = 10_000;
const EVENTS_PER_SESSION = 100;
const RUNS = 200;

const TOPICS = ["pagination", "auth", "billing", "search", "export", "caching", "logging", "retries", "uploads", "metrics", "webhooks", "i18n"];
const VERBS = ["Add", "Fix", "Refactor", "Document", "Speed up", "Test"];
const STATUSES = ["idle", "idle", "idle", "idle", "awaiting_review", "awaiting_permission", "running", "interrupted"];
const MODES = ["default", "default", "plan", "acceptEdits"];
const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

function seed(file: string): void {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const session = db.prepare(
    'INSERT INTO "Session" ("id","title","workspace","agent","model","permissionMode","status","state","lastSeq","lastActivityAt","createdAt","updatedAt","searchKey","searchDocs") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
  );
  const event = db.prepare('INSERT INTO "SessionEvent" ("sessionId","seq","type","payload","createdAt") VALUES (?,?,?,?,?)');
  // The same layout the app writes: rowid = searchKey * 2^24 + document number.
  const doc = db.prepare('INSERT INTO "SessionSearch" (rowid, "body") VALUES (?, ?)');
  const start = Date.parse("2026-01-01T00:00:00Z");
  db.transaction(() => {
    for (let i = 0; i < SESSIONS; i++) {
      const id = `ses_bench${String(i).padStart(6, "0")}`;
      const topic = TOPICS[i % TOPICS.length]!;
      const title = `${VERBS[i % VERBS.length]} ${topic} in module ${i}`;
      const at = iso(start + i * 60_000);
      const key = i + 1;
      let docs = 0;
      // The title plus the user and assistant messages (seq ending in 1 or 9).
      session.run(id, title, `/work/ws${i % 5}`, "build", "offline", MODES[i % MODES.length], STATUSES[i % STATUSES.length], "{}", EVENTS_PER_SESSION, at, at, at, key, 1 + EVENTS_PER_SESSION / 5);
      doc.run(key * DOCS_PER_SESSION + docs++, title);
      for (let seq = 1; seq <= EVENTS_PER_SESSION; seq++) {
        const k = seq % 10;
        let type: string;
        let payload: unknown;
        if (k === 1) {
          type = "message.user";
          payload = { text: `Please look at the ${TOPICS[(i + seq) % TOPICS.length]} code around line ${seq}` };
        } else if (k === 9) {
          type = "message.assistant";
          payload = { text: `I changed the ${topic} handler (step ${seq}).` };
        } else if (k % 2 === 0) {
          type = "tool.called";
          payload = { callId: `c${seq}`, tool: "read", input: { path: `src/${topic}/file${seq}.ts` } };
        } else {
          type = "tool.result";
          payload = { callId: `c${seq - 1}`, tool: "read", ok: true, output: "export const x = 1;\n".repeat(3) };
        }
        event.run(id, seq, type, JSON.stringify(payload), at);
        if (type.startsWith("message.")) doc.run(key * DOCS_PER_SESSION + docs++, (payload as { text: string }).text);
      }
    }
  })();
  db.pragma("optimize");
  db.close();
}

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
  seed(t.file);
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
  return { sessions: SESSIONS, events: SESSIONS * EVENTS_PER_SESSION, seedSeconds: round(seedMs / 1000, 1), runsPerQuery: RUNS, results };
}
