import "server-only";
import type { Selectable } from "kysely";
import { type Conn, type Executor, kysely } from "../client";
import { shapedQuery } from "../shaped-query";
import { rootValues, underRoots } from "../within-roots";
import type { Review } from "../generated-kysely/types";

/** Home of the Review table's reads and of a review's creation; a review leaves pending only in close-review. */
export type ReviewRow = Selectable<Review>;
/** `roots`: only reviews of sessions whose workspace is one of these roots or under one. */
export type ReviewFilter = { id?: string; sessionId?: string; status?: string; roots?: readonly string[] };

/** A new review, pending: intent and payload as JSON. */
export type NewReview = {
  id: string;
  sessionId: string;
  kind: "plan-review" | "question";
  intent: string;
  payload: string;
  toolCallId: string;
  planId?: string;
  planVersion?: number;
  createdAt: Date;
};

const FILTERS = ["id", "sessionId", "status"] as const;
const reviewRows = shapedQuery<ReviewRow>();

export async function listReviewRows(conn: Conn, where: ReviewFilter): Promise<ReviewRow[]> {
  const k = kysely(conn);
  const set = FILTERS.filter((key) => where[key] !== undefined);
  const roots = where.roots;
  const key = `reviews:${set.join(",")}${roots ? `:r${roots.length}` : ""}`;
  return reviewRows(k, key, { ...where, ...rootValues(roots ?? []) }, (bind) => {
    let q = k.selectFrom("Review").selectAll();
    for (const key of set) q = q.where(key, "=", bind<string>(key));
    if (roots)
      q = q.where("sessionId", "in", (eb) =>
        eb
          .selectFrom("Session as rs")
          .select("rs.id")
          .where(underRoots("rs.workspace", roots.length, bind)),
      );
    return q.orderBy("createdAt").orderBy("id");
  });
}

/** A waiting review as the desk weighs every one: what orders it, who asks, and where (its session's columns). */
export type DeskReviewRow = {
  id: string;
  kind: string;
  intent: string;
  createdAt: Date | string;
  sessionId: string;
  workspace: string;
  agent: string;
  model: string;
  teamId: string | null;
};
const deskReviewRows = shapedQuery<DeskReviewRow>();

/**
 * Every pending review with its session's columns, oldest first, in one query: the desk counts and filters all of
 * them, so no wide column (plan text, payload, the session's title) is read here; a page's rows read theirs.
 */
export async function listDeskReviewRows(conn: Conn, roots?: readonly string[]): Promise<DeskReviewRow[]> {
  const k = kysely(conn);
  return deskReviewRows(k, `desk-reviews${roots ? `:r${roots.length}` : ""}`, rootValues(roots ?? []), (bind) => {
    let q = k
      .selectFrom("Review as r")
      .innerJoin("Session as s", "s.id", "r.sessionId")
      .select(["r.id", "r.kind", "r.intent", "r.createdAt", "r.sessionId", "s.workspace"])
      .select(["s.agent", "s.model", "s.teamId"])
      .where("r.status", "=", "pending");
    if (roots) q = q.where(underRoots("s.workspace", roots.length, bind));
    return q.orderBy("r.createdAt").orderBy("r.id");
  });
}

/** The payloads of these reviews (a desk page's questions), in one query. */
export async function listReviewPayloads(
  conn: Conn,
  ids: readonly string[],
): Promise<{ id: string; payload: string }[]> {
  if (ids.length === 0) return [];
  return kysely(conn).selectFrom("Review").select(["id", "payload"]).where("id", "in", ids).execute();
}

/** The pending reviews of these sessions, in one query (a list page's sessions, never one query per session). */
export async function listPendingReviewsOf(conn: Conn, sessionIds: readonly string[]): Promise<ReviewRow[]> {
  if (sessionIds.length === 0) return [];
  return kysely(conn)
    .selectFrom("Review")
    .selectAll()
    .where("status", "=", "pending")
    .where("sessionId", "in", sessionIds)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}

/** The review a tool call opened, if it did (a rerun of the call finds it instead of asking again). */
export async function findReviewOfCall(
  conn: Conn,
  sessionId: string,
  toolCallId: string,
): Promise<Pick<ReviewRow, "id" | "status" | "answer" | "decision"> | undefined> {
  return kysely(conn)
    .selectFrom("Review")
    .select(["id", "status", "answer", "decision"])
    .where("sessionId", "=", sessionId)
    .where("toolCallId", "=", toolCallId)
    .executeTakeFirst();
}

/** Stores a pending review; the unique pendingKey (the session's id while pending) keeps one per session. */
export async function insertReview(conn: Conn, r: NewReview): Promise<void> {
  await kysely(conn)
    .insertInto("Review")
    .values({
      id: r.id,
      sessionId: r.sessionId,
      kind: r.kind,
      status: "pending",
      pendingKey: r.sessionId,
      intent: r.intent,
      payload: r.payload,
      toolCallId: r.toolCallId,
      planId: r.planId ?? null,
      planVersion: r.planVersion ?? null,
      createdAt: r.createdAt,
    })
    .execute();
}

/** A plan review's version, with the tool call it answers and the session it belongs to. */
export type ReviewedVersion = {
  id: string;
  planId: string;
  version: number;
  content: string;
  filePath: string;
  status: string;
  editedByUser: boolean;
  toolCallId: string | null;
  sessionId: string;
  workspace: string;
  model: string;
  agent: string;
};

const reviewedVersions = shapedQuery<ReviewedVersion>();

/** A reviewed version's columns: the version, its review's call and session, and the session's workspace and agent. */
const REVIEWED_COLUMNS = [
  "v.id",
  "v.planId",
  "v.version",
  "v.content",
  "v.filePath",
  "v.status",
  "v.editedByUser",
  "r.toolCallId",
  "r.sessionId",
  "s.workspace",
  "s.model",
  "s.agent",
] as const;

export async function findReviewedVersion(conn: Conn, reviewId: string): Promise<ReviewedVersion | undefined> {
  const k = kysely(conn);
  const [row] = await reviewedVersions(k, "reviewed", { reviewId }, (bind) =>
    reviewedVersion(k, bind<string>("reviewId")),
  );
  return row;
}

function reviewedVersion(k: Executor, reviewId: string) {
  return k
    .selectFrom("Review as r")
    .innerJoin("PlanVersion as v", (j) => j.onRef("v.planId", "=", "r.planId").onRef("v.version", "=", "r.planVersion"))
    .innerJoin("Session as s", "s.id", "r.sessionId")
    .select(REVIEWED_COLUMNS)
    .where("r.id", "=", reviewId);
}

/** A reviewed version with its review's id, and its session's starter and team (a list's one read for many reviews). */
export type ReviewedVersionOf = ReviewedVersion & { reviewId: string; startedBy: string | null; teamId: string | null };

/** The reviewed versions of these reviews, in no order: one query a few hundred reviews, never one per review. */
export async function listReviewedVersions(conn: Conn, reviewIds: readonly string[]): Promise<ReviewedVersionOf[]> {
  const k = kysely(conn);
  const out: ReviewedVersionOf[] = [];
  for (let i = 0; i < reviewIds.length; i += 500) {
    const rows = await k
      .selectFrom("Review as r")
      .innerJoin("PlanVersion as v", (j) =>
        j.onRef("v.planId", "=", "r.planId").onRef("v.version", "=", "r.planVersion"),
      )
      .innerJoin("Session as s", "s.id", "r.sessionId")
      .select([...REVIEWED_COLUMNS, "r.id as reviewId", "s.startedBy", "s.teamId"])
      .where("r.id", "in", reviewIds.slice(i, i + 500))
      .execute();
    out.push(...rows.map((r) => ({ ...r, editedByUser: Boolean(r.editedByUser) })));
  }
  return out;
}

/** The payload (JSON) of the newest result logged for a tool call: what the decision told the agent. */
export async function findCallResultPayload(
  conn: Conn,
  sessionId: string,
  callId: string,
): Promise<string | undefined> {
  const row = await kysely(conn)
    .selectFrom("SessionEvent")
    .select("payload")
    .where("sessionId", "=", sessionId)
    .where("type", "=", "tool.result")
    .where("payload", "like", `%"callId":${JSON.stringify(callId)}%`)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.payload;
}

/** Which model runs the session (an outside agent's reviews are closed and read by its own routes). */
export async function findSessionModel(conn: Conn, sessionId: string): Promise<string | undefined> {
  const row = await kysely(conn).selectFrom("Session").select("model").where("id", "=", sessionId).executeTakeFirst();
  return row?.model;
}

/** Whether the review is still pending, read on the caller's transaction. */
export async function reviewIsPending(conn: Conn, reviewId: string): Promise<boolean> {
  const row = await kysely(conn).selectFrom("Review").select("status").where("id", "=", reviewId).executeTakeFirst();
  return row?.status === "pending";
}
