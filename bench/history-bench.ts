/**
 * What a step costs as a session's log grows: model steps (the first of a turn and the rest), the session's
 * JSON, replay at the last event and the timeline's page of events, in sessions with 1k, 10k and 100k events
 * of history. Turns on the three sessions are interleaved round by round, so noise hits them alike.
 */
import { clearViews } from "../lib/agent/conversation-cache";
import { driveSession } from "../lib/agent/drive-session";
import { startSession } from "../lib/agent/start-session";
import type { Db } from "../lib/db/client";
import { appendEvents } from "../lib/session/append-events";
import { subscribeEvents } from "../lib/session/bus";
import type { NewEvent } from "../lib/session/log/events";
import { getSession } from "../lib/session/get-session";
import { readEvents } from "../lib/db/session-log/read-events";
import { sessionHistory } from "../lib/session/session-history";
import { TIMELINE_PAGE } from "../lib/session/timeline-items";
import { stateAt } from "../lib/session/state-at";
import { GET as getSessionRoute } from "../app/api/sessions/[id]/route";
import { median, round } from "./lib/stats";
import { scriptedWorkspace } from "./lib/scripted-workspace";
import { personCookie } from "./lib/credential";

const SIZES = [1_000, 10_000, 100_000];
/** Turns per session: the first steps are 50 samples, the others 150. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const STEPS_PER_TURN = 4;
/** Calls per history step: a long session's log, with fewer model steps than events (the script holds at most 1,000). */
const CALLS_PER_STEP = 90;
const CONTEXT_CHARS = 400_000;
const OUTPUT = "export function handler(req, res) {\n  return res.json({ ok: true });\n}\n".repeat(4);

/** A long session's log: turns of model steps reading files, compacted whenever the conversation outgrows the limit. */
function history(size: number): { events: NewEvent[]; steps: number } {
  const events: NewEvent[] = [];
  let steps = 0;
  let chars = 0;
  let turn = 0;
  const push = (e: NewEvent) => {
    events.push(e);
    if (
      e.type === "message.user" ||
      e.type === "message.assistant" ||
      e.type === "tool.called" ||
      e.type === "tool.result"
    )
      chars += JSON.stringify(e.payload).length;
  };
  while (events.length < size) {
    const turnId = `trn_h${turn++}`;
    push({ type: "message.user", payload: { text: `Look at module ${turn} and tell me what it does.` } });
    push({ type: "turn.started", payload: { turnId } });
    for (let s = 0; s < 8 && events.length < size - 2; s++) {
      push({
        type: "message.assistant",
        payload: { text: "Reading the files.", step: steps++, model: "scripted", mode: "default" },
      });
      for (let c = 0; c < CALLS_PER_STEP; c++)
        push({
          type: "tool.called",
          payload: { callId: `h${turn}_${s}_${c}`, tool: "read", input: { path: `src/m${turn}/f${c}.ts` } },
        });
      for (let c = 0; c < CALLS_PER_STEP; c++)
        push({
          type: "tool.result",
          payload: { callId: `h${turn}_${s}_${c}`, tool: "read", ok: true, output: OUTPUT },
        });
      if (chars > CONTEXT_CHARS) {
        events.push({
          type: "compaction",
          payload: {
            summary: `Summary up to turn ${turn}: ${"the handlers return ok; ".repeat(80)}`,
            fromSeq: 1,
            toSeq: events.length + 1,
          },
        });
        chars = 2_000;
      }
    }
    push({
      type: "message.assistant",
      payload: { text: `Module ${turn} returns ok.`, step: steps++, model: "scripted", mode: "default" },
    });
    push({ type: "turn.ended", payload: { turnId, reason: "done" } });
    // The person switches modes now and then: the mode history (and the page's history panel) grows too.
    push({ type: "mode.changed", payload: { from: "default", to: "acceptEdits", prePlanMode: null, cause: "user" } });
    push({ type: "mode.changed", payload: { from: "acceptEdits", to: "default", prePlanMode: null, cause: "user" } });
  }
  return { events, steps };
}

type Sample = {
  first: number[];
  rest: number[];
  json: number[];
  replay: number[];
  page: number[];
  coldFirst: number[];
};

async function turn(db: Db, id: string, n: number): Promise<number[]> {
  const stamps: number[] = [];
  const unsubscribe = subscribeEvents(id, (events) => {
    if (events.some((e) => e.type === "tool.result")) stamps.push(performance.now());
  });
  stamps.push(performance.now());
  await appendEvents(db, id, [
    { type: "message.user", payload: { text: `go ${n}` } },
    { type: "turn.started", payload: { turnId: `trn_m${n}` } },
  ]);
  await driveSession(db, id);
  unsubscribe();
  if (stamps.length !== STEPS_PER_TURN + 1)
    throw new Error(`expected ${STEPS_PER_TURN} steps, saw ${stamps.length - 1}`);
  return stamps.slice(1).map((s, i) => s - (stamps[i] as number));
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchHistory() {
  const { t, root, dispose } = scriptedWorkspace("history", { env: { PLANGATE_CONTEXT_CHARS: String(CONTEXT_CHARS) } });

  const sessions: { size: number; id: string; events: number; compactions: number }[] = [];
  const measured: Record<string, unknown>[] = [];
  for (let i = 0; i < ROUNDS + 2; i++)
    for (let s = 0; s < STEPS_PER_TURN; s++)
      measured.push(
        s < STEPS_PER_TURN - 1
          ? { toolCalls: [{ name: "read", input: { path: "small.txt", offset: 1 + (s % 5) } }] }
          : { toolCalls: [{ name: "read", input: { path: "small.txt" } }] },
      );
  for (const size of SIZES) {
    const { events, steps } = history(size);
    // Each measured turn is STEPS_PER_TURN reads then a closing text: the script's steps after the history's.
    const script = [
      ...Array.from({ length: steps }, () => ({})),
      ...Array.from({ length: ROUNDS + 2 }, () => [...measured.slice(0, STEPS_PER_TURN), { text: "done" }]).flat(),
    ];
    const { session } = await startSession(t.db, {
      workspace: root,
      agent: "build",
      mode: "default",
      model: "scripted",
      script,
    });
    for (let i = 0; i < events.length; i += 1000) await appendEvents(t.db, session.id, events.slice(i, i + 1000));
    sessions.push({
      size,
      id: session.id,
      events: (await readEvents(t.db, session.id)).length,
      compactions: events.filter((e) => e.type === "compaction").length,
    });
  }

  // The session's JSON as a signed-in viewer of the workspace reads it (a 401 would time nothing).
  const headers = { cookie: await personCookie(t.db, root, "viewer") };
  for (const s of sessions) {
    const res = await getSessionRoute(new Request(`http://127.0.0.1/api/sessions/${s.id}`, { headers }), {
      params: Promise.resolve({ id: s.id }),
    });
    if (res.status !== 200) throw new Error(`GET /api/sessions/${s.id} answered ${res.status}`);
  }
  const samples = new Map<number, Sample>(
    SIZES.map((s) => [s, { first: [], rest: [], json: [], replay: [], page: [], coldFirst: [] }]),
  );
  // Warm the process (modules, JIT, the sandbox probe) on a session of its own, so the cold figures below are
  // about the log, not about this process's first turn.
  const { session: warm } = await startSession(t.db, {
    workspace: root,
    agent: "build",
    mode: "default",
    model: "scripted",
    script: [...measured.slice(0, STEPS_PER_TURN), { text: "done" }],
  });
  await turn(t.db, warm.id, -1);
  // The first turn after a restart rebuilds the view from the log (reported, not part of the target).
  clearViews();
  for (const s of sessions) samples.get(s.size)!.coldFirst.push(...(await turn(t.db, s.id, -s.size)).slice(0, 1));
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of sessions) {
      const sample = samples.get(s.size)!;
      const steps = await turn(t.db, s.id, round * 1_000_000 + s.size);
      sample.first.push(steps[0]!);
      sample.rest.push(...steps.slice(1));
      const params = { params: Promise.resolve({ id: s.id }) };
      for (let k = 0; k < 2; k++) {
        sample.json.push(
          await time(async () =>
            (await getSessionRoute(new Request(`http://127.0.0.1/api/sessions/${s.id}`, { headers }), params)).text(),
          ),
        );
        const { lastSeq } = (await getSession(t.db, s.id)).session;
        sample.replay.push(await time(() => stateAt(t.db, s.id, lastSeq)));
        // What the session page reads that could grow with the log: its last page of events and its history panel.
        sample.page.push(
          await time(() =>
            Promise.all([
              readEvents(t.db, s.id, { after: Math.max(0, lastSeq - TIMELINE_PAGE) }),
              sessionHistory(t.db, s.id, { recent: 100 }),
            ]),
          ),
        );
      }
    }
  }
  await dispose();

  const m = (xs: number[]) => round(median(xs), 2);
  const base = samples.get(SIZES[0]!)!;
  const rows = sessions.map((s) => {
    const x = samples.get(s.size)!;
    return {
      events: s.events,
      compactions: s.compactions,
      stepMsMedian: m(x.rest),
      firstStepMsMedian: m(x.first),
      coldFirstStepMs: m(x.coldFirst),
      stepRatioTo1k: round(median(x.rest) / median(base.rest), 2),
      firstStepRatioTo1k: round(median(x.first) / median(base.first), 2),
      sessionJsonMsMedian: m(x.json),
      replayAtLastMsMedian: m(x.replay),
      timelinePageMsMedian: m(x.page),
    };
  });
  return { name: "history", rounds: ROUNDS, stepsPerTurn: STEPS_PER_TURN, sizes: rows, targetRatio: 1.5 };
}
