import "server-only";
import { sql } from "kysely";
import type { RelatedSession } from "../../core/history-view";
import { type Conn, kysely } from "../client";

/*
 * Reads for a session's history and export: its plan versions and their verdicts, the reviewers' comments, mode
 * switches, permission replies and linked sessions. Display only: the plan, review and permission tables are
 * written by their own modules.
 */

export type PlanVersionRow = {
  planId: string;
  version: number;
  status: string;
  decision: string | null;
  feedback: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  editedByUser: boolean;
  createdAt: Date;
  content: string;
  /** The status of the version's latest verification (pass, fail), null when none ran. */
  verified: string | null;
};

/** Every version of the session's plans, plan by plan (oldest plan first), version by version. */
export async function listPlanVersions(conn: Conn, sessionId: string): Promise<PlanVersionRow[]> {
  return kysely(conn)
    .selectFrom("PlanVersion as v")
    .innerJoin("Plan as p", "p.id", "v.planId")
    .select((eb) => [
      "v.planId",
      "v.version",
      "v.status",
      "v.decision",
      "v.feedback",
      "v.decidedBy",
      "v.decidedAt",
      "v.editedByUser",
      "v.createdAt",
      "v.content",
      eb
        .selectFrom("Verification as x")
        .select("x.status")
        .whereRef("x.planId", "=", "v.planId")
        .whereRef("x.planVersion", "=", "v.version")
        .orderBy("x.createdAt", "desc")
        .limit(1)
        .as("verified"),
    ])
    .where("p.sessionId", "=", sessionId)
    .orderBy("p.createdAt")
    .orderBy("v.version")
    .execute();
}

export type PlanCommentRow = {
  planId: string;
  version: number;
  lineStart: number;
  lineEnd: number;
  quote: string;
  body: string;
  author: string;
};

/** The reviewers' comments on lines of the session's plan versions, by version, line and time. */
export async function listPlanComments(conn: Conn, sessionId: string): Promise<PlanCommentRow[]> {
  return kysely(conn)
    .selectFrom("PlanComment as c")
    .innerJoin("Plan as p", "p.id", "c.planId")
    .select(["c.planId", "c.version", "c.lineStart", "c.lineEnd", "c.quote", "c.body", "c.author"])
    .where("p.sessionId", "=", sessionId)
    .orderBy("c.version")
    .orderBy("c.lineStart")
    .orderBy("c.createdAt")
    .execute();
}

/** `latest`: only that many, the newest (still returned oldest first). */
export type Latest = { latest?: number };

export type ModeChangeRow = { seq: number; fromMode: string; toMode: string; cause: string; createdAt: Date };

/** The session's mode switches in log order. */
export async function listModeChanges(
  conn: Conn,
  sessionId: string,
  { latest }: Latest = {},
): Promise<ModeChangeRow[]> {
  const q = kysely(conn)
    .selectFrom("ModeChange")
    .select(["seq", "fromMode", "toMode", "cause", "createdAt"])
    .where("sessionId", "=", sessionId);
  if (latest === undefined) return q.orderBy("seq").execute();
  // The latest rows come newest first from the index and are put back in order here.
  return (await q.orderBy("seq", "desc").limit(latest).execute()).reverse();
}

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
  const q = kysely(conn)
    .selectFrom("PermissionRequest")
    .select(["id", "tool", "permission", "patterns", "status", "scope", "message", "createdAt", "repliedAt"])
    .where("sessionId", "=", sessionId);
  if (latest === undefined) return q.orderBy("createdAt").orderBy("id").execute();
  return (await q.orderBy("createdAt", "desc").orderBy("id", "desc").limit(latest).execute()).reverse();
}

/** The sessions linked to this one: its parent and subagents, what it was forked from and its forks, its team. */
export async function listRelatedSessions(conn: Conn, sessionId: string): Promise<RelatedSession[]> {
  const k = kysely(conn);
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
    )
    .execute();
}

/** How many mode switches and permission requests the session has in all, and its projection state (JSON). */
export async function countHistory(
  conn: Conn,
  sessionId: string,
): Promise<{ modes: number; permissions: number; state: string | null }> {
  const row = await kysely(conn)
    .selectNoFrom((eb) => [
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
      eb.selectFrom("Session").select("state").where("id", "=", sessionId).as("state"),
    ])
    .executeTakeFirstOrThrow();
  return { modes: Number(row.modes ?? 0), permissions: Number(row.permissions ?? 0), state: row.state };
}
