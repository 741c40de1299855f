/** Folding a 100,000-event session from scratch, and reading a session's state from its projection. */
import Database from "better-sqlite3";
import { createSession } from "../lib/session/create-session";
import type { NewEvent } from "../lib/session/log/events";
import { foldEvents } from "../lib/session/log/fold";
import { getSession } from "../lib/session/get-session";
import { readEvents } from "../lib/db/session-log/read-events";
import { planAppend } from "../lib/session/append-events";
import { projectionColumns } from "../lib/session/log/projection";
import { median, quantile, repeat, round } from "./lib/stats";
import { tempDb } from "./lib/temp-db";

const EVENTS = 100_000;

/** A realistic mix: turns with messages, tool calls, asks, mode switches and reviews. */
function syntheticLog(): NewEvent[] {
  const out: NewEvent[] = [];
  let mode: "default" | "plan" = "default";
  for (let turn = 0; out.length < EVENTS; turn++) {
    out.push({ type: "turn.started", payload: { turnId: `t${turn}` } });
    out.push({ type: "message.user", payload: { text: `please look at module ${turn}` } });
    for (let step = 0; step < 4; step++) {
      out.push({
        type: "tool.called",
        payload: { callId: `c${turn}-${step}`, tool: "read", input: { path: `src/m${step}.ts` } },
      });
      out.push({
        type: "tool.result",
        payload: { callId: `c${turn}-${step}`, tool: "read", ok: true, output: "export const x = 1;\n".repeat(5) },
      });
    }
    if (turn % 5 === 0) {
      out.push({
        type: "permission.asked",
        payload: { requestId: `p${turn}`, tool: "bash", permission: "bash", patterns: ["npm test"] },
      });
      out.push({ type: "permission.replied", payload: { requestId: `p${turn}`, reply: "once" } });
    }
    if (turn % 7 === 0) {
      const to: "default" | "plan" = mode === "plan" ? "default" : "plan";
      out.push({
        type: "mode.changed",
        payload: { from: mode, to, prePlanMode: to === "plan" ? mode : null, cause: "user" },
      });
      mode = to;
    }
    out.push({ type: "message.assistant", payload: { text: `done with module ${turn}` } });
    out.push({ type: "turn.ended", payload: { turnId: `t${turn}`, reason: "done" } });
  }
  return out.slice(0, EVENTS);
}

export async function benchFold() {
  const t = tempDb("fold");
  const { id, state: first } = await createSession(t.db, {
    title: "big",
    workspace: "/tmp",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  const planned = planAppend(first, syntheticLog(), new Date());
  await t.db.$disconnect();
  const sqlite = new Database(t.file);
  const insert = sqlite.prepare(
    'INSERT INTO "SessionEvent" ("sessionId","seq","type","payload","createdAt") VALUES (?,?,?,?,?)',
  );
  const c = projectionColumns(planned.state, new Date());
  sqlite.transaction(() => {
    for (const e of planned.events) insert.run(id, e.seq, e.type, JSON.stringify(e.payload), Date.now());
    sqlite
      .prepare('UPDATE "Session" SET "state"=?, "lastSeq"=?, "status"=?, "permissionMode"=? WHERE "id"=?')
      .run(c.state, c.lastSeq, c.status, c.permissionMode, id);
  })();
  sqlite.close();
  const { createDb } = await import("../lib/db/client");
  const db = createDb(t.url);

  const loaded = await readEvents(db, id);
  const pureFold = await repeat(7, () => {
    const s = performance.now();
    foldEvents(loaded);
    return performance.now() - s;
  });
  const readAndFold = await repeat(5, async () => {
    const s = performance.now();
    foldEvents(await readEvents(db, id));
    return performance.now() - s;
  });
  const folded = foldEvents(loaded);
  for (let i = 0; i < 50; i++) await getSession(db, id);
  const projection = await repeat(500, async () => {
    const s = performance.now();
    await getSession(db, id);
    return performance.now() - s;
  });
  const fromProjection = (await getSession(db, id)).state;
  await db.$disconnect();
  await t.dispose();
  const sorted = [...projection].sort((a, b) => a - b);
  return {
    name: "fold-and-projection",
    events: loaded.length,
    foldMsMedian: round(median(pureFold), 1),
    foldTargetMs: 300,
    readAndFoldMsMedian: round(median(readAndFold), 1),
    projectionReadMsMedian: round(median(projection), 3),
    projectionReadMsP95: round(quantile(sorted, 0.95), 3),
    projectionTargetMs: 2,
    foldEqualsProjection: JSON.stringify(folded) === JSON.stringify(fromProjection),
  };
}
