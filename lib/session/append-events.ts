import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { newId } from "../id";
import { AppError } from "../errors";
import { WriteConflict, withConflictRetry } from "../db/retry";
import { parseNewEvent, type NewEvent, type SessionEvent } from "./events";
import { applyEvent, type SessionState } from "./fold";
import { projectionColumns, stateFromRow } from "./projection";
import { publishEvents } from "./bus";

export type Tx = Prisma.TransactionClient;
export type Appended = { events: SessionEvent[]; state: SessionState };
type Writes = Prisma.PrismaPromise<unknown>[];

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

// Last committed state per session, a hint that saves a read per append. It is never trusted for correctness:
// the (sessionId, seq) primary key rejects an append built on a stale hint, which then re-reads and retries.
const hints = new Map<string, SessionState>();
function remember(sessionId: string, state: SessionState): void {
  if (hints.size > 5000) hints.delete(hints.keys().next().value as string);
  hints.set(sessionId, state);
}

function writesFor(db: Db | Tx, sessionId: string, previous: SessionState, result: Appended, at: Date): Writes {
  const writes: Writes = [
    db.sessionEvent.createMany({
      data: result.events.map((e) => ({ sessionId, seq: e.seq, type: e.type, payload: JSON.stringify(e.payload), createdAt: at })),
    }),
    db.session.updateMany({ where: { id: sessionId, lastSeq: previous.lastSeq }, data: projectionColumns(result.state, at) }),
  ];
  const modeRows = result.events.flatMap((e) =>
    e.type === "mode.changed"
      ? [{ id: newId("mod"), sessionId, seq: e.seq, fromMode: e.payload.from, toMode: e.payload.to, prePlanMode: e.payload.prePlanMode, cause: e.payload.cause, createdAt: at }]
      : [],
  );
  if (modeRows.length > 0) writes.push(db.modeChange.createMany({ data: modeRows }));
  return writes;
}

async function readState(db: Db | Tx, sessionId: string): Promise<SessionState> {
  const row = await db.session.findUnique({ where: { id: sessionId }, select: { state: true, lastSeq: true } });
  if (!row) throw new AppError("session_not_found");
  return stateFromRow(row);
}

/** Appends inside the caller's interactive transaction (for writes that depend on reads made in it). */
export async function appendEventsInTx(tx: Tx, sessionId: string, events: NewEvent[]): Promise<Appended> {
  const current = await readState(tx, sessionId);
  const at = new Date();
  const result = planAppend(current, events, at);
  const [, updated] = (await Promise.all(writesFor(tx, sessionId, current, result, at))) as [unknown, { count: number }];
  if (updated.count !== 1) throw new WriteConflict(`session ${sessionId} moved past seq ${current.lastSeq}`);
  return result;
}

export type AppendOptions = {
  /** Other rows to write in the same transaction, built from the state the events lead to. */
  also?: (next: SessionState, events: SessionEvent[]) => Writes;
};

// Appends from this process to one session go one after another, so they do not race each other's hints.
// Only an optimisation: other processes are kept out by the database, not by this queue.
const queues = new Map<string, Promise<unknown>>();
function queued<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(sessionId) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const tail = next.catch(() => undefined);
  queues.set(sessionId, tail);
  void tail.then(() => {
    if (queues.get(sessionId) === tail) queues.delete(sessionId);
  });
  return next;
}

/** Appends events and updates the projection in one transaction; streams hear of them only after the commit. */
export function appendEvents(db: Db, sessionId: string, events: NewEvent[], opts: AppendOptions = {}): Promise<Appended> {
  return queued(sessionId, () => appendNow(db, sessionId, events, opts));
}

async function appendNow(db: Db, sessionId: string, events: NewEvent[], opts: AppendOptions): Promise<Appended> {
  const result = await withConflictRetry(async (attempt) => {
    const current = (attempt === 0 && hints.get(sessionId)) || (await readState(db, sessionId));
    const at = new Date();
    const planned = planAppend(current, events, at);
    try {
      await db.$transaction([...writesFor(db, sessionId, current, planned, at), ...(opts.also?.(planned.state, planned.events) ?? [])]);
    } catch (error) {
      hints.delete(sessionId);
      throw error;
    }
    return planned;
  });
  remember(sessionId, result.state);
  publishEvents(sessionId, result.events);
  return result;
}

/** For code that committed events through appendEventsInTx: refresh the hint and notify streams. */
export function afterCommit(sessionId: string, result: Appended): void {
  remember(sessionId, result.state);
  publishEvents(sessionId, result.events);
}
