import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { freshDb, onPostgres, type TestDb } from "../../tests/helpers/db";
import { waitFor } from "../../tests/helpers/poll";
import { appendEvents } from "./append-events";
import { createSession } from "./create-session";
import { streamSessionEvents } from "./stream-events";

const run = promisify(execFile);
let t: TestDb;
const controllers: AbortController[] = [];

beforeEach(() => {
  t = freshDb();
});
afterEach(async () => {
  for (const c of controllers.splice(0)) c.abort();
  vi.restoreAllMocks();
  await t.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newSession(): Promise<string> {
  return (
    await createSession(t.db, {
      title: "stream test",
      workspace: "/tmp/w",
      agent: "build",
      model: "offline",
      mode: "default",
    })
  ).id;
}

/** An open stream whose text is collected as it arrives. */
function open(sessionId: string, after = 0) {
  const controller = new AbortController();
  controllers.push(controller);
  const reader = streamSessionEvents(t.db, sessionId, after, controller.signal).getReader();
  const decoder = new TextDecoder();
  const s = {
    text: "",
    done: false,
    ids: () => [...s.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])),
    close: () => controller.abort(),
  };
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      s.text += decoder.decode(value);
    }
    s.done = true;
  })();
  return s;
}

/** Appends on a connection of its own, as another server process would: no bus, only the database. */
async function appendElsewhere(sessionId: string, texts: string[]): Promise<void> {
  if (onPostgres) {
    // As another instance would: its own connection and transaction.
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ lastSeq: number }>(
        'SELECT "lastSeq" FROM "Session" WHERE "id" = $1 FOR UPDATE',
        [sessionId],
      );
      const lastSeq = Number(rows[0]?.lastSeq);
      for (const [i, text] of texts.entries()) {
        await client.query(
          'INSERT INTO "SessionEvent" ("sessionId", "seq", "type", "payload", "createdAt") VALUES ($1, $2, $3, $4, now())',
          [sessionId, lastSeq + 1 + i, "notice", JSON.stringify({ level: "info", text })],
        );
      }
      // No NOTIFY of its own: the database's trigger announces the new lastSeq at commit.
      await client.query('UPDATE "Session" SET "lastSeq" = $1 WHERE "id" = $2', [lastSeq + texts.length, sessionId]);
      await client.query("COMMIT");
    } finally {
      await client.end();
    }
    return;
  }
  const conn = new Database(t.file);
  try {
    conn.transaction(() => {
      const { lastSeq } = conn.prepare('SELECT "lastSeq" FROM "Session" WHERE "id" = ?').get(sessionId) as {
        lastSeq: number;
      };
      const insert = conn.prepare(
        'INSERT INTO "SessionEvent" ("sessionId", "seq", "type", "payload", "createdAt") VALUES (?, ?, ?, ?, ?)',
      );
      texts.forEach((text, i) =>
        insert.run(sessionId, lastSeq + 1 + i, "notice", JSON.stringify({ level: "info", text }), Date.now()),
      );
      conn.prepare('UPDATE "Session" SET "lastSeq" = ? WHERE "id" = ?').run(lastSeq + texts.length, sessionId);
    })();
  } finally {
    conn.close();
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("session event stream", () => {
  it("sends what another process appends, mixed with this process's appends, in seq order and each once", async () => {
    const id = await newSession();
    const s = open(id);
    const worker = path.resolve(import.meta.dirname, "../../tests/helpers/append-worker.ts");
    await Promise.all([
      run(process.execPath, ["--conditions=react-server", "--import", "tsx", worker, t.url, id, "20", "w"], {
        timeout: 60_000,
      }),
      (async () => {
        for (let i = 0; i < 10; i++) {
          await appendEvents(t.db, id, [{ type: "message.user", payload: { text: `here-${i}` } }]);
          await sleep(30);
        }
      })(),
    ]);
    // Then the other process alone: nothing on this process's bus can reveal these.
    await run(process.execPath, ["--conditions=react-server", "--import", "tsx", worker, t.url, id, "5", "v"], {
      timeout: 60_000,
    });
    await waitFor("event 36 on the stream", () => s.ids().includes(36));
    await sleep(1200); // a duplicate would come from a later tick
    expect(s.ids()).toEqual(range(1, 36));
  }, 90_000);

  it("resumes after a seq and then follows writes from another connection within about a second", async () => {
    const id = await newSession();
    await appendEvents(
      t.db,
      id,
      range(1, 5).map((i) => ({ type: "notice" as const, payload: { level: "info" as const, text: `n${i}` } })),
    );
    const s = open(id, 3);
    await waitFor("event 6 on the stream", () => s.ids().includes(6));
    const at = Date.now();
    await appendElsewhere(id, ["a", "b"]);
    await waitFor("event 8 on the stream", () => s.ids().includes(8));
    expect(Date.now() - at).toBeLessThan(1500);
    expect(s.ids()).toEqual([4, 5, 6, 7, 8]);
    expect(s.text).toContain('"text":"b"');
  });

  it("idle streams issue no queries of their own, and the watcher stops when the last one closes", async () => {
    // SQLite: statements run (prepared ones are reused, so count runs, not prepares); PostgreSQL: queries sent on
    // any connection (pool or listener).
    const scratch = new Database(":memory:");
    const statement = Object.getPrototypeOf(scratch.prepare("SELECT 1")) as Database.Statement;
    scratch.close();
    const sent = onPostgres ? vi.spyOn(pg.Client.prototype, "query") : vi.spyOn(statement, "all");
    const idleQueries = async () => {
      await sleep(600); // let first reads and the first full check pass
      sent.mockClear();
      await sleep(2000);
      return sent.mock.calls.length;
    };
    const ids = await Promise.all(range(1, 100).map(() => newSession()));
    const few = ids.slice(0, 3).map((id) => open(id));
    const withFew = await idleQueries();
    const many = ids.slice(3).map((id) => open(id));
    const withMany = await idleQueries();
    // About one statement per tick, however many streams are open (none on PostgreSQL: notifications wake them).
    if (onPostgres) expect(withFew).toBe(0);
    else expect(withFew).toBeGreaterThan(0);
    expect(withFew).toBeLessThanOrEqual(6);
    expect(withMany).toBeLessThanOrEqual(withFew + 1);
    for (const s of [...few, ...many]) s.close();
    await waitFor("every stream to end", () => [...few, ...many].every((s) => s.done));
    expect(await idleQueries()).toBe(0);
    // Another connection's write still reaches a stream opened after the watcher went quiet.
    const again = open(ids[0] as string);
    await waitFor("event 1 on the new stream", () => again.ids().includes(1));
    await appendElsewhere(ids[0] as string, ["late"]);
    await waitFor("event 2 on the new stream", () => again.ids().includes(2));
    expect(again.ids()).toEqual([1, 2]);
  });

  // A stream's catch-up on SQLite reads at once when no transaction is open on the shared connection. The attack: a
  // stream opens while another caller's append is open on that connection and rolls back; were the read not kept
  // out of the transaction, it would send an event that never existed.
  it("never sends an event of an append that is open when it opens and then rolls back", async () => {
    const id = await newSession();
    let release = () => undefined as void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inside = () => undefined as void;
    const opened = new Promise<void>((r) => {
      inside = r;
    });
    const ghost = appendEvents(t.db, id, [{ type: "notice", payload: { level: "info", text: "ghost" } }], {
      also: async () => {
        inside();
        await held;
        throw new Error("rolled back");
      },
    }).catch((error: Error) => error.message);
    await opened;
    const s = open(id);
    release();
    expect(await ghost).toBe("rolled back");
    await appendEvents(t.db, id, [{ type: "notice", payload: { level: "info", text: "real" } }]);
    await waitFor("the committed event", () => (s.text.includes('"real"') ? true : null));
    expect(s.text).not.toContain("ghost");
    expect(s.ids()).toEqual([1, 2]);
  });

  it("closes on abort, even when aborted before it starts", async () => {
    const id = await newSession();
    const s = open(id);
    await waitFor("event 1 on the stream", () => s.ids().includes(1));
    s.close();
    await waitFor("the stream to end", () => s.done);
    const controller = new AbortController();
    controller.abort();
    const reader = streamSessionEvents(t.db, id, 0, controller.signal).getReader();
    const chunks: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(new TextDecoder().decode(r.value));
    expect(chunks.join("")).not.toContain("id:");
  });
});
