import "server-only";
import { sql } from "kysely";
import type { RelatedSession } from "../../session/views/history-view";
import { type Conn, type Executor, kysely } from "../client";
import { shapedQuery } from "../shaped-query";

/*
 * Reads for a session's history and export: mode switches, permission replies, linked sessions, the counts and a
 * fork's copied review events (its plan versions and comments: plan-versions.ts). Display only: the plan, review
 * and permission tables are written by their own modules.
 */

/** `latest`: only that many, the newest (still returned oldest first). */
export type Latest = { latest?: number };

export type ModeChangeRow = { seq: number; fromMode: string; toMode: string; cause: string; createdAt: Date };

/** The session's mode switches in log order. */
export async function listModeChanges(
  conn: Conn,
  sessionId: string,
  { latest }: Latest = {},
): Promise<ModeChangeRow[]> {
  const k = kysely(conn);
  const rows = await modeRows(k, `modes:${latest === undefined ? "all" : "latest"}`, { sessionId, latest }, (bind) => {
    const q = k
      .selectFrom("ModeChange")
      .select(["seq", "fromMode", "toMode", "cause", "createdAt"])
      .where("sessionId", "=", bind<string>("sessionId"));
    // The latest rows come newest first from the index and are put back in order below.
    return latest === undefined ? q.orderBy("seq") : q.orderBy("seq", "desc").limit(bind<number>("latest"));
  });
  return latest === undefined ? rows : rows.reverse();
}
const modeRows = shapedQuery<ModeChangeRow>();

export type PermissionDecisionRow = {
  id: string;
  tool: string;
  permission: string;
  /** JSON: the asked patterns. */
  patterns: string;
  status: string;
  scope: string | null;
  message: string | null;
  createdAt: Date;
  repliedAt: Date | null;
};

/** The session's permission requests (asked and answered) in the order they were asked. */
export async function listPermissionDecisions(
  conn: Conn,
  sessionId: string,
  { latest }: Latest = {},
): Promise<PermissionDecisionRow[]> {
  const k = kysely(conn);
  const key = `asks:${latest === undefined ? "all" : "latest"}`;
  const rows = await askRows(k, key, { sessionId, latest }, (bind) => {
    const q = k
      .selectFrom("PermissionRequest")
      .select(["id", "tool", "permission", "patterns", "status", "scope", "message", "createdAt", "repliedAt"])
      .where("sessionId", "=", bind<string>("sessionId"));
    if (latest === undefined) return q.orderBy("createdAt").orderBy("id");
    return q.orderBy("createdAt", "desc").orderBy("id", "desc").limit(bind<number>("latest"));
  });
  return latest === undefined ? rows : rows.reverse();
}
const askRows = shapedQuery<PermissionDecisionRow>();

/** The sessions linked to this one: its parent and subagents, what it was forked from and its forks, its team. */
export async function listRelatedSessions(conn: Conn, sessionId: string): Promise<RelatedSession[]> {
  const k = kysely(conn);
  return relatedRows(k, "related", { sessionId }, (bind) => relatedSessions(k, bind<string>("sessionId")));
}
const relatedRows = shapedQuery<RelatedSession>();

function relatedSessions(k: Executor, sessionId: string) {
  const as = (relation: RelatedSession["relation"]) => sql.lit(relation).$castTo<RelatedSession["relation"]>();
  return k
    .selectFrom("Session as s")
    .innerJoin("Session as p", "p.id", "s.parentId")
    .select(["p.id", "p.title", as("parent").as("relation")])
    .where("s.id", "=", sessionId)
    .unionAll(
      k
        .selectFrom("Session as c")
        .select(["c.id", "c.title", as("subagent").as("relation")])
        .where("c.parentId", "=", sessionId),
    )
    .unionAll(
      k
        .selectFrom("Session as s")
        .innerJoin("Session as f", "f.id", "s.forkedFromId")
        .select(["f.id", "f.title", as("forked from").as("relation")])
        .where("s.id", "=", sessionId),
    )
    .unionAll(
      k
        .selectFrom("Session as f")
        .select(["f.id", "f.title", as("fork").as("relation")])
        .where("f.forkedFromId", "=", sessionId),
    )
    .unionAll(
      k
        .selectFrom("Session as s")
        .innerJoin("Session as m", "m.teamId", "s.teamId")
        .select((eb) => [
          "m.id",
          "m.title",
          eb.case().when("m.role", "=", "lead").then(as("lead")).else(as("teammate")).end().as("relation"),
        ])
        .where("s.id", "=", sessionId)
        .whereRef("m.id", "<>", "s.id"),
    );
}

/**
 * How many mode switches, permission requests and plan versions (its own, not a fork's copied ones) the session has
 * in all, and its projection state (JSON).
 */
export async function countHistory(
  conn: Conn,
  sessionId: string,
): Promise<{ modes: number; permissions: number; plans: number; state: string | null }> {
  const k = kysely(conn);
  const [row] = await countRows(k, "counts", { sessionId }, (bind) => countsOf(k, bind<string>("sessionId")));
  if (!row) throw new Error(`no counts for ${sessionId}`);
  return {
    modes: Number(row.modes ?? 0),
    permissions: Number(row.permissions ?? 0),
    plans: Number(row.plans ?? 0),
    state: row.state,
  };
}

function countsOf(k: Executor, sessionId: string) {
  return k.selectNoFrom((eb) => [
    eb
      .selectFrom("ModeChange")
      .select((c) => c.fn.countAll<number>().as("n"))
      .where("sessionId", "=", sessionId)
      .as("modes"),
    eb
      .selectFrom("PermissionRequest")
      .select((c) => c.fn.countAll<number>().as("n"))
      .where("sessionId", "=", sessionId)
      .as("permissions"),
    eb
      .selectFrom("PlanVersion as v")
      .innerJoin("Plan as p", "p.id", "v.planId")
      .select((c) => c.fn.countAll<number>().as("n"))
      .where("p.sessionId", "=", sessionId)
      .as("plans"),
    eb.selectFrom("Session").select("state").where("id", "=", sessionId).as("state"),
  ]);
}
const countRows = shapedQuery<{
  modes: number | null;
  permissions: number | null;
  plans: number | null;
  state: string | null;
}>();

/** The review events a fork copied from its source's log (up to its fork point): none for a session not forked. */
export async function listCopiedReviewEvents(
  conn: Conn,
  sessionId: string,
): Promise<{ type: string; payload: string }[]> {
  return kysely(conn)
    .selectFrom("SessionEvent as e")
    .innerJoin("Session as s", "s.id", "e.sessionId")
    .select(["e.type", "e.payload"])
    .where("e.sessionId", "=", sessionId)
    .where("s.forkSeq", "is not", null)
    .whereRef("e.seq", "<=", "s.forkSeq")
    .where("e.type", "in", ["review.asked", "review.answered", "verification.completed"])
    .orderBy("e.seq")
    .execute();
}
