import "server-only";
import type { Insertable } from "kysely";
import type { ProjectionColumns } from "../../session/log/projection";
import type { NewEvent } from "../../session/log/events";
import { newId } from "../../id";
import { type Conn, kysely } from "../client";
import type { ModeChange, SessionEvent } from "../generated-kysely/types";
import { fixedShape } from "./fixed-shape";

// Rows per INSERT: one statement per this many events keeps a long import or fork under the engines' limits on
// bound values (5 per row) while an ordinary append stays one statement.
const EVENTS_PER_INSERT = 200;

type EventValues = Required<Insertable<SessionEvent>>;
type ModeChangeValues = Required<Insertable<ModeChange>>;
type ProjectionValues = ProjectionColumns & { updatedAt: Date; id: string; expectedLastSeq: number };

const insertEvents = fixedShape<EventValues, unknown>((ex, slot, rows) =>
  ex.insertInto("SessionEvent").values(
    Array.from({ length: rows }, (_, r) => ({
      sessionId: slot("sessionId", r),
      seq: slot("seq", r),
      type: slot("type", r),
      payload: slot("payload", r),
      createdAt: slot("createdAt", r),
    })),
  ),
);

const insertModeChange = fixedShape<ModeChangeValues, unknown>((ex, slot) =>
  ex.insertInto("ModeChange").values({
    id: slot("id"),
    sessionId: slot("sessionId"),
    seq: slot("seq"),
    fromMode: slot("fromMode"),
    toMode: slot("toMode"),
    prePlanMode: slot("prePlanMode"),
    cause: slot("cause"),
    createdAt: slot("createdAt"),
  }),
);

const writeProjection = fixedShape<ProjectionValues, unknown>((ex, slot) =>
  ex
    .updateTable("Session")
    .set({
      permissionMode: slot("permissionMode"),
      prePlanMode: slot("prePlanMode"),
      planActive: slot("planActive"),
      planPending: slot("planPending"),
      status: slot("status"),
      pendingReviewId: slot("pendingReviewId"),
      pendingAsks: slot("pendingAsks"),
      state: slot("state"),
      lastSeq: slot("lastSeq"),
      lastActivityAt: slot("lastActivityAt"),
      updatedAt: slot("updatedAt"),
    })
    .where("id", "=", slot("id"))
    .where("lastSeq", "=", slot("expectedLastSeq")),
);

/**
 * The rows of logged events: the events themselves and the mode history they carry. Appends, forks and
 * imports all write a log through here, so the ModeChange table always matches the log.
 */
export async function insertLogRows<E extends NewEvent & { seq: number }>(
  conn: Conn,
  sessionId: string,
  events: readonly E[],
  at: (e: E) => Date,
): Promise<void> {
  const db = kysely(conn);
  for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
    const chunk = events.slice(i, i + EVENTS_PER_INSERT);
    await insertEvents(
      db,
      chunk.map((e) => ({
        sessionId,
        seq: e.seq,
        type: e.type,
        payload: JSON.stringify(e.payload),
        createdAt: at(e),
      })),
    );
  }
  for (const e of events) {
    if (e.type !== "mode.changed") continue;
    await insertModeChange(db, [
      {
        id: newId("mod"),
        sessionId,
        seq: e.seq,
        fromMode: e.payload.from,
        toMode: e.payload.to,
        prePlanMode: e.payload.prePlanMode ?? null,
        cause: e.payload.cause,
        createdAt: at(e),
      },
    ]);
  }
}

/**
 * Writes the projection columns of an append, only over the state it was planned on: false when another writer
 * moved the session past `expectedLastSeq` (nothing written). On PostgreSQL this UPDATE also notifies other
 * instances' streams, at commit (the log_notify migration's trigger).
 */
export async function updateProjection(
  conn: Conn,
  sessionId: string,
  expectedLastSeq: number,
  columns: ProjectionColumns,
  at: Date,
): Promise<boolean> {
  const r = await writeProjection(kysely(conn), [
    { ...columns, lastActivityAt: at, updatedAt: at, id: sessionId, expectedLastSeq },
  ]);
  return Number(r.numAffectedRows) === 1;
}
