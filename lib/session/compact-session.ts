import type { Db } from "../db/client";
import { AppError } from "../errors";
import { appendEvents } from "./append-events";
import type { SessionEvent } from "./log/events";
import { getSession } from "./get-session";
import { openCalls } from "./open-calls";
import { readEvents } from "../db/session-log/read-events";
import { summarizeLog } from "./summarize-log";

function sinceLastCompaction(events: readonly SessionEvent[]): { previous: string | null; from: number } {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === "compaction") return { previous: e.payload.summary, from: e.payload.toSeq + 1 };
  }
  return { previous: null, from: 1 };
}

/**
 * Summarises the turns so far into one compaction event. The log keeps every event (history stays
 * browsable); only what the model is sent changes. Never cuts through tool calls waiting for their results.
 */
export async function compactSession(
  db: Db,
  sessionId: string,
  opts: { duringTurn?: string } = {},
): Promise<{ compacted: boolean; toSeq: number }> {
  // Only the log from the last compaction on matters (its summary, then what came after): the cost of a
  // compaction follows what it summarises, not the session's age. The state knows where that is (a state
  // written before it kept step facts says 0: the whole log, still right).
  const { state } = await getSession(db, sessionId);
  const events = await readEvents(db, sessionId, { after: Math.max(0, (state.steps?.compactedAt ?? 0) - 1) });
  const { previous, from } = sinceLastCompaction(events);
  const slice = events.filter((e) => e.seq >= from && e.type !== "compaction");
  if (slice.length === 0) return { compacted: false, toSeq: from - 1 };
  if (openCalls(events).length > 0)
    throw new AppError("conflict", "Tool calls are waiting for their results; compact after they finish.");
  const toSeq = events.at(-1)?.seq ?? 0;
  const summary = [previous ? `Earlier:\n${previous}\n` : "", summarizeLog(slice)].join("\n").trim();
  await appendEvents(db, sessionId, [{ type: "compaction", payload: { summary, fromSeq: from, toSeq } }], {
    guard: (s) => s.lastSeq === toSeq && (opts.duringTurn ? s.openTurnId === opts.duringTurn : s.openTurnId === null),
  });
  return { compacted: true, toSeq };
}
