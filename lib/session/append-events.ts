import { type Conn, withTransaction, type Db } from "../db/client";
import type { Executor } from "../db/client";
import { insertLogRows, updateProjection } from "../db/session-log/append-rows";
import { readSessionState } from "../db/session-log/read-state";
import { indexDocs } from "../db/session-log/search-rows";
import { AppError } from "../errors";
import { WriteConflict, withConflictRetry } from "../db/write-conflict";
import { parseNewEvent, type NewEvent, type SessionEvent } from "./log/events";
import { applyEvent, type SessionState } from "./log/fold";
import { projectionColumns } from "./log/projection";
import { searchDocs } from "./log/search-text";
import { publishEvents } from "./bus";
import { announceOutbox, insertOutboxRows } from "./outbox";

export type Appended = { events: SessionEvent[]; state: SessionState };

/** Pure: gives the new events their seqs and folds them onto the current state. */
export function planAppend(current: SessionState, events: NewEvent[], at: Date): Appended {
  let state = current;
  const stored: SessionEvent[] = [];
  for (const e of events) {
    const event = { ...parseNewEvent(e), seq: state.lastSeq + 1, at: at.toISOString() } as SessionEvent;
    state = applyEvent(state, event);
    stored.push(event);
  }
  return { events: stored, state };
}

/** The committed state of a session, read in the caller's transaction. */
export async function readState(conn: Conn, sessionId: string): Promise<SessionState> {
  const state = await readSessionState(conn, sessionId);
  if (!state) throw new AppError("session_not_found");
  return state;
}

/**
 * The writes of one append: event rows, outbox rows, projection columns and mode history. A writer that raced
 * us fails on the (sessionId, seq) primary key or on the lastSeq guard, and the caller re-reads and retries.
 */
async function writeAppend(
  run: Executor,
  sessionId: string,
  previous: SessionState,
  result: Appended,
  at: Date,
): Promise<void> {
  const trx = run;
  await insertLogRows(trx, sessionId, result.events, () => at);
  // Only new events owe outside effects (webhooks): forks and imports copy history through insertLogRows alone.
  await insertOutboxRows(run, sessionId, result.events, at);
  await indexDocs(trx, sessionId, searchDocs(result.events));
  if (!(await updateProjection(trx, sessionId, previous.lastSeq, projectionColumns(result.state, at), at)))
    throw new WriteConflict(`session ${sessionId} moved past seq ${previous.lastSeq}`);
}

/**
 * Appends inside the caller's transaction (run is it), for rows that must commit with the events. `current`:
 * the state this same transaction just wrote (never a cached hint), which saves reading it back.
 */
export async function appendEventsInTx(
  run: Executor,
  sessionId: string,
  events: NewEvent[],
  current?: SessionState,
): Promise<Appended> {
  const state = current ?? (await readState(run, sessionId));
  const at = new Date();
  const result = planAppend(state, events, at);
  await writeAppend(run, sessionId, state, result, at);
  return result;
}

// Last committed state per session, a hint that saves a read per append. It is never trusted for correctness:
// an append built on a stale hint is rejected by the database, then re-reads and retries.
const hints = new Map<string, SessionState>();
function remember(sessionId: string, state: SessionState): void {
  if (hints.size > 5000) hints.delete(hints.keys().next().value as string);
  hints.set(sessionId, state);
}

// Appends from this process to one session go one after another, so they do not race each other's hints.
// Only an optimisation: other processes are kept out by the database, not by this queue.
const queues = new Map<string, Promise<unknown>>();
function queued<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
  const next = (queues.get(sessionId) ?? Promise.resolve()).then(fn, fn);
  const tail = next.catch(() => undefined);
  queues.set(sessionId, tail);
  void tail.then(() => {
    if (queues.get(sessionId) === tail) queues.delete(sessionId);
  });
  return next;
}

export type AppendOptions = {
  /** Other writes that must commit with the events, given the state they lead to. */
  also?: (run: Executor, result: Appended) => Promise<void>;
  /** Checked against the committed state inside the transaction; false aborts the append with StaleAppend. */
  guard?: (current: SessionState) => boolean;
};

/** The state changed under the caller (e.g. the turn was aborted): nothing was written. */
export class StaleAppend extends Error {
  override name = "StaleAppend";
}

/** Appends events and updates the projection in one transaction; streams hear of them only after the commit. */
export function appendEvents(
  db: Db,
  sessionId: string,
  /** The events, or built from the state they follow (reading on the transaction's runner when they need more). */
  events: NewEvent[] | ((current: SessionState, run: Executor) => NewEvent[] | Promise<NewEvent[]>),
  opts: AppendOptions = {},
): Promise<Appended> {
  return queued(sessionId, async () => {
    const result = await withConflictRetry((attempt) =>
      withTransaction(db, async (run) => {
        const current = (attempt === 0 && hints.get(sessionId)) || (await readState(run, sessionId));
        const at = new Date();
        if (opts.guard && !opts.guard(current)) {
          // A hint may be stale: only a state read in this transaction can refuse the append.
          if (attempt === 0 && hints.has(sessionId)) throw new WriteConflict("re-check the guard on a fresh read");
          throw new StaleAppend(`session ${sessionId} changed: append refused`);
        }
        const planned = planAppend(current, typeof events === "function" ? await events(current, run) : events, at);
        try {
          await writeAppend(run, sessionId, current, planned, at);
          await opts.also?.(run, planned);
        } catch (error) {
          hints.delete(sessionId);
          throw error;
        }
        return planned;
      }),
    );
    afterCommit(sessionId, result);
    return result;
  });
}

/** Drops the hint of a session that went quiet (a suspended turn holds nothing in memory). */
export function forgetHint(sessionId: string): void {
  hints.delete(sessionId);
}

/** For code that committed events through appendEventsInTx: refresh the hint and notify streams. */
export function afterCommit(sessionId: string, result: Appended): void {
  remember(sessionId, result.state);
  publishEvents(sessionId, result.events);
  announceOutbox(result.events);
}
