import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshDb, type TestDb } from "../../tests/helpers/db";
import { appendEvents } from "./append-events";
import { createSession } from "./create-session";
import { sql } from "kysely";
import { createDb, kysely } from "../db/client";
import { waitFor } from "../../tests/helpers/poll";
import { announceTouched } from "./log-watch";
import { type Changed, streamChanges } from "./stream-changes";

// Issue 43: list pages (desk, home, a team) re-render when a session they may show changes, pushed over one stream
// per tab, instead of re-rendering every 2 s. The attack beside it: a person must not learn of changes in a
// workspace they may not read (not even that something happened there).
const run = promisify(execFile);
let t: TestDb;
const controllers: AbortController[] = [];
beforeEach(() => {
  t = freshDb();
});
afterEach(async () => {
  for (const c of controllers.splice(0)) c.abort();
  await t.close();
});

const session = async (workspace: string) =>
  (await createSession(t.db, { title: "t", workspace, agent: "build", model: "offline", mode: "default" })).id;

/** An open stream for someone who may read only /srv/a: resolves each "changed" message as it arrives. */
function open(since?: number) {
  const controller = new AbortController();
  controllers.push(controller);
  const reader = streamChanges(t.db, (ws) => ws === "/srv/a", controller.signal, since).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const next = async (): Promise<Changed> => {
    for (;;) {
      const m = /event: changed\ndata: (.*)\n\n/.exec(text);
      if (m) {
        text = text.slice((m.index ?? 0) + m[0].length);
        return JSON.parse(m[1] as string) as Changed;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      text += decoder.decode(value);
    }
  };
  return { next };
}

const note = (text: string) => [{ type: "notice" as const, payload: { level: "info" as const, text } }];

describe("the changes stream", () => {
  it("names the visible sessions that changed, and never one in a workspace the person may not read", async () => {
    const a = await session("/srv/a");
    const b = await session("/srv/b");
    const s = open();
    // The attack: a change in /srv/b first. Were it reported, it would be in the first message.
    await appendEvents(t.db, b, note("hidden"));
    await appendEvents(t.db, a, note("shown"));
    expect(await s.next()).toEqual({ sessions: [a], deliveries: [] });
    await appendEvents(t.db, b, note("hidden again"));
    await appendEvents(t.db, a, note("shown again"));
    expect((await s.next()).sessions).toEqual([a]);
  });

  it("tells at once what changed between the page's read and its stream's opening (never an unreadable one)", async () => {
    const a = await session("/srv/a");
    const b = await session("/srv/b");
    const read = Date.now();
    // The page was rendered at `read`; these commits land before its stream opens.
    await appendEvents(t.db, b, note("hidden"));
    await appendEvents(t.db, a, note("missed before"));
    const s = open(read);
    expect(await s.next()).toEqual({ sessions: [a], deliveries: [] });
  });

  it("hears what another server process committed, and names only the sessions the person may read", async () => {
    const a = await session("/srv/a");
    const b = await session("/srv/b");
    const s = open();
    const worker = path.resolve(import.meta.dirname, "../../tests/helpers/append-worker.ts");
    // The attack: another process writes to /srv/b first, then to /srv/a; SQLite tells only that something
    // changed, so which sessions is read back and filtered like the rest.
    const other = run(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", worker, t.url, `${b},${a}`, "3", "w"],
      { timeout: 60_000 },
    );
    const got = await s.next();
    await other;
    expect(got).toEqual({ sessions: [a], deliveries: [] });
  });

  // Issue 43: a webhook delivery made or attempted re-rendered every list page (the desk, home), and on PostgreSQL
  // one made by another instance reached no page at all. Now it is its own kind of change, heard on every instance.
  it("names a session whose deliveries changed under `deliveries` only, from any instance, never an unreadable one", async () => {
    const a = await session("/srv/a");
    const b = await session("/srv/b");
    const s = open();
    // Another instance on PostgreSQL (its own client and connections); on SQLite, one server: this process.
    const other = t.provider === "postgres" ? createDb(t.url) : t.db;
    try {
      // PostgreSQL tells only connections already listening: the stream's LISTEN is awaited, as a page's is there.
      if (t.provider === "postgres")
        await waitFor("the stream's LISTEN", async () => {
          const { rows } = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND query ILIKE 'LISTEN%'`.execute(kysely(t.db));
          return (rows[0]?.n ?? 0) > 0;
        });
      // The attack: /srv/b's deliveries first. Were they reported, they would be in the first message.
      await announceTouched(other, b);
      await announceTouched(other, a);
      expect(await s.next()).toEqual({ sessions: [], deliveries: [a] });
      // A log change afterwards is still a change of the session, not of its deliveries.
      await appendEvents(t.db, a, note("shown"));
      expect(await s.next()).toEqual({ sessions: [a], deliveries: [] });
    } finally {
      if (other !== t.db) await other.$disconnect();
    }
  });
});
