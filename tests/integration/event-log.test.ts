import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { appendEvents } from "../../lib/session/append-events";
import { createSession } from "../../lib/session/create-session";
import { foldEvents } from "../../lib/session/log/fold";
import { getSession } from "../../lib/session/get-session";
import { readEvents } from "../../lib/db/session-log/read-events";
import { freshDb, type TestDb } from "../helpers/db";
import { randomOp, rng } from "../helpers/random-ops";

const run = promisify(execFile);
let t: TestDb;

beforeEach(() => {
  t = freshDb();
});
afterEach(async () => {
  await t.close();
});

async function newSession() {
  return createSession(t.db, {
    title: "log test",
    workspace: "/tmp/w",
    agent: "build",
    model: "offline",
    mode: "default",
  });
}

function expectGapFree(seqs: number[]) {
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
}

describe("session event log (real SQLite file)", () => {
  it("numbers 60 concurrent in-process appends 1..61 with no gap or duplicate", async () => {
    const { id } = await newSession();
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        appendEvents(t.db, id, [{ type: "message.user", payload: { text: `m${i}` } }]),
      ),
    );
    const events = await readEvents(t.db, id);
    expectGapFree(events.map((e) => e.seq));
    expect(new Set(events.map((e) => JSON.stringify(e.payload))).size).toBe(61);
    expect((await getSession(t.db, id)).session.lastSeq).toBe(61);
  });

  it("keeps the log gap-free when three processes append to one session at once", async () => {
    const { id } = await newSession();
    const worker = path.resolve(import.meta.dirname, "../helpers/append-worker.ts");
    await Promise.all(
      ["a", "b", "c"].map((tag) =>
        run(process.execPath, ["--conditions=react-server", "--import", "tsx", worker, t.url, id, "40", tag], {
          timeout: 120_000,
        }),
      ),
    );
    const events = await readEvents(t.db, id);
    expect(events).toHaveLength(121);
    expectGapFree(events.map((e) => e.seq));
    for (const tag of ["a", "b", "c"]) {
      // Each writer's own events stay in the order it wrote them.
      const mine = events.flatMap((e) =>
        e.type === "message.user" && e.payload.text.startsWith(`${tag}-`) ? [Number(e.payload.text.slice(2))] : [],
      );
      expect(mine).toEqual(Array.from({ length: 40 }, (_, i) => i));
    }
    const { state } = await getSession(t.db, id);
    expect(state).toEqual(foldEvents(events));
  }, 180_000);

  it.each([1, 2, 3])(
    "fold of the log equals the stored projection after a random mix of operations (seed %i)",
    async (seed) => {
      const { id } = await newSession();
      const rand = rng(seed);
      let state = (await getSession(t.db, id)).state;
      for (let n = 0; n < 150; n++) {
        const events = randomOp(state, rand, n);
        if (events.length === 0) continue;
        state = (await appendEvents(t.db, id, events)).state;
        if (n % 50 === 0) expect((await getSession(t.db, id)).state).toEqual(foldEvents(await readEvents(t.db, id)));
      }
      const stored = await getSession(t.db, id);
      const folded = foldEvents(await readEvents(t.db, id));
      expect(stored.state).toEqual(folded);
      expect(stored.session.status).toBe(folded.status);
      expect(stored.session.mode).toBe(folded.mode);
      const row = await t.db.session.findUniqueOrThrow({ where: { id } });
      expect({
        planActive: row.planActive,
        planPending: row.planPending,
        prePlanMode: row.prePlanMode,
        pendingAsks: row.pendingAsks,
      }).toEqual({
        planActive: folded.plan.active,
        planPending: folded.plan.pending,
        prePlanMode: folded.prePlanMode,
        pendingAsks: folded.pendingPermissions.length,
      });
    },
  );

  it("records every mode change in the mode history in the same transaction", async () => {
    const { id } = await newSession();
    await appendEvents(t.db, id, [
      { type: "mode.changed", payload: { from: "default", to: "plan", prePlanMode: "default", cause: "command" } },
    ]);
    await appendEvents(t.db, id, [
      { type: "mode.changed", payload: { from: "plan", to: "acceptEdits", prePlanMode: null, cause: "review" } },
    ]);
    const history = await t.db.modeChange.findMany({ where: { sessionId: id }, orderBy: { seq: "asc" } });
    expect(history.map((h) => [h.seq, h.fromMode, h.toMode, h.cause])).toEqual([
      [2, "default", "plan", "command"],
      [3, "plan", "acceptEdits", "review"],
    ]);
  });

  it("rejects an invalid event without writing anything", async () => {
    const { id } = await newSession();
    const bad = { type: "mode.changed", payload: { from: "default", to: "yolo", prePlanMode: null, cause: "user" } };
    await expect(appendEvents(t.db, id, [bad as never])).rejects.toThrow();
    expect(await readEvents(t.db, id)).toHaveLength(1);
    expect((await getSession(t.db, id)).session.lastSeq).toBe(1);
  });

  it("survives a stale hint: another writer's append makes the next one re-read, not overwrite", async () => {
    const { id } = await newSession();
    await appendEvents(t.db, id, [{ type: "message.user", payload: { text: "one" } }]);
    // A second client on the same file stands in for a second server process.
    const other = createDb(t.url);
    await appendEvents(other, id, [{ type: "turn.started", payload: { turnId: "x" } }]);
    await other.$disconnect();
    const r = await appendEvents(t.db, id, [{ type: "message.user", payload: { text: "three" } }]);
    expect(r.events[0]?.seq).toBe(4);
    expect(r.state.status).toBe("running");
  });
});
