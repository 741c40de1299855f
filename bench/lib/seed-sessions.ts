/** Seeds sessions, their events and their search documents with raw better-sqlite3 (the app's layout, ~100k events/s). */
import Database from "better-sqlite3";
import { DOCS_PER_SESSION } from "../../lib/session/search-index";

const TOPICS = [
  "pagination",
  "auth",
  "billing",
  "search",
  "export",
  "caching",
  "logging",
  "retries",
  "uploads",
  "metrics",
  "webhooks",
  "i18n",
];
const VERBS = ["Add", "Fix", "Refactor", "Document", "Speed up", "Test"];
const STATUSES = ["idle", "idle", "idle", "idle", "awaiting_review", "awaiting_permission", "running", "interrupted"];
const MODES = ["default", "default", "plan", "acceptEdits"];
const START = Date.parse("2026-01-01T00:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

export type SeedOptions = {
  /** Sessions numbered from..to-1 (so a database can be grown in steps); session i was last active at minute i. */
  from?: number;
  to: number;
  eventsPerSession: number;
  /** Session i's user messages also say `word` when `has(i)`: words of chosen rarity and age. */
  markers?: { word: string; has: (i: number) => boolean }[];
};

/** One transaction, synchronous off: a bench database is thrown away, so a crash mid-seed costs nothing. */
export function seedSessions(file: string, opts: SeedOptions): void {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const session = db.prepare(
    'INSERT INTO "Session" ("id","title","workspace","agent","model","permissionMode","status","state","lastSeq","lastActivityAt","createdAt","updatedAt","searchKey","searchDocs") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
  );
  const event = db.prepare(
    'INSERT INTO "SessionEvent" ("sessionId","seq","type","payload","createdAt") VALUES (?,?,?,?,?)',
  );
  // The same layout the app writes: rowid = searchKey * 2^24 + document number.
  const doc = db.prepare('INSERT INTO "SessionSearch" (rowid, "body") VALUES (?, ?)');
  const n = opts.eventsPerSession;
  const messages = Math.floor((n + 9) / 10) + Math.floor((n + 1) / 10);
  db.transaction(() => {
    for (let i = opts.from ?? 0; i < opts.to; i++) {
      const id = `ses_bench${String(i).padStart(6, "0")}`;
      const topic = TOPICS[i % TOPICS.length]!;
      const title = `${VERBS[i % VERBS.length]} ${topic} in module ${i}`;
      const at = iso(START + i * 60_000);
      const key = i + 1;
      let docs = 0;
      // The title plus the user and assistant messages (seq ending in 1 or 9).
      session.run(
        id,
        title,
        `/work/ws${i % 5}`,
        "build",
        "offline",
        MODES[i % MODES.length],
        STATUSES[i % STATUSES.length],
        "{}",
        n,
        at,
        at,
        at,
        key,
        1 + messages,
      );
      doc.run(key * DOCS_PER_SESSION + docs++, title);
      for (let seq = 1; seq <= n; seq++) {
        const k = seq % 10;
        let type: string;
        let payload: unknown;
        if (k === 1) {
          type = "message.user";
          const extra = (opts.markers ?? []).map((m) => (m.has(i) ? ` and the ${m.word} quirk` : "")).join("");
          payload = { text: `Please look at the ${TOPICS[(i + seq) % TOPICS.length]} code around line ${seq}${extra}` };
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
