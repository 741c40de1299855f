import "server-only";
import { type Conn, type Executor, kysely } from "../client";
import { shapedQuery } from "../shaped-query";

/*
 * Reads for a session's History and export: its plan versions with their verdicts, and the reviewers' comments on
 * them. Display only: the plan and review tables are written by their own modules.
 */

export type PlanVersionRow = {
  planId: string;
  version: number;
  status: string;
  decision: string | null;
  feedback: string | null;
  decidedBy: string | null;
  /** The person who decided, as their review recorded them ("Ada", "Ada via token tok_…"); null when none did. */
  deciderName: string | null;
  decidedAt: Date | null;
  editedByUser: boolean;
  createdAt: Date;
  content: string;
  /** The status of the version's latest verification (pass, fail, unverified), null when none ran. */
  verified: string | null;
};

/** Every version of the session's plans, plan by plan (oldest plan first), version by version. */
export async function listPlanVersions(conn: Conn, sessionId: string): Promise<PlanVersionRow[]> {
  const k = kysely(conn);
  return versionRows(k, "versions", { sessionId }, (bind) =>
    planVersions(k, bind<string>("sessionId")).orderBy("p.createdAt").orderBy("p.id").orderBy("v.version"),
  );
}
const versionRows = shapedQuery<PlanVersionRow>();

/** Keyset position among a session's plan versions: the plan's creation, its id (plans made at one instant), the version. */
export type PlanVersionCursor = { planAt: Date; planId: string; version: number };
export type PlanVersionPageRow = PlanVersionRow & { planCreatedAt: Date };

/**
 * One page of the session's plan versions, newest first (the reverse of listPlanVersions): `limit + 1` rows at most,
 * the extra one telling that a next page exists and being the version the page's oldest one is diffed against.
 */
export async function listPlanVersionPage(
  conn: Conn,
  sessionId: string,
  after: PlanVersionCursor | undefined,
  limit: number,
): Promise<PlanVersionPageRow[]> {
  const k = kysely(conn);
  const values = { sessionId, limit: limit + 1, ...(after ?? {}) };
  return versionPageRows(k, `versions-page:${after ? 1 : 0}`, values, (bind) => {
    let q = planVersions(k, bind<string>("sessionId")).select("p.createdAt as planCreatedAt");
    if (after) {
      const at = bind<Date>("planAt");
      const planId = bind<string>("planId");
      q = q
        .where("p.createdAt", "<=", at)
        .where((eb) =>
          eb.or([
            eb("p.createdAt", "<", at),
            eb("p.id", "<", planId),
            eb.and([eb("p.id", "=", planId), eb("v.version", "<", bind<number>("version"))]),
          ]),
        );
    }
    return q
      .orderBy("p.createdAt", "desc")
      .orderBy("p.id", "desc")
      .orderBy("v.version", "desc")
      .limit(bind<number>("limit"));
  });
}
const versionPageRows = shapedQuery<PlanVersionPageRow>();

/** A plan version's columns as History shows it, alike for a session's versions and for reviews' versions. */
const VERSION_COLUMNS = [
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
] as const;

function planVersions(k: Executor, sessionId: string) {
  return k
    .selectFrom("PlanVersion as v")
    .innerJoin("Plan as p", "p.id", "v.planId")
    .select((eb) => [
      ...VERSION_COLUMNS,
      eb
        .selectFrom("Verification as x")
        .select("x.status")
        .whereRef("x.planId", "=", "v.planId")
        .whereRef("x.planVersion", "=", "v.version")
        .orderBy("x.createdAt", "desc")
        .limit(1)
        .as("verified"),
      eb
        .selectFrom("Review as r")
        .select("r.deciderName")
        .whereRef("r.planId", "=", "v.planId")
        .whereRef("r.planVersion", "=", "v.version")
        .where("r.deciderName", "is not", null)
        .orderBy("r.decidedAt", "desc")
        .limit(1)
        .as("deciderName"),
    ])
    .where("p.sessionId", "=", sessionId);
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

/**
 * The reviewers' comments on lines of the session's plan versions, by version, line and time; `versions`: only on
 * those (a page of History), else on all of them (the export).
 */
export async function listPlanComments(
  conn: Conn,
  sessionId: string,
  versions?: readonly { planId: string; version: number }[],
): Promise<PlanCommentRow[]> {
  if (versions?.length === 0) return [];
  const k = kysely(conn);
  const key = `comments:${versions === undefined ? "all" : versions.length}`;
  const values = {
    sessionId,
    ...Object.fromEntries(
      (versions ?? []).flatMap((v, i) => [
        [`p${i}`, v.planId],
        [`v${i}`, v.version],
      ]),
    ),
  };
  return commentRows(k, key, values, (bind) => {
    let q = k
      .selectFrom("PlanComment as c")
      .innerJoin("Plan as p", "p.id", "c.planId")
      .select(["c.planId", "c.version", "c.lineStart", "c.lineEnd", "c.quote", "c.body", "c.author"])
      .where("p.sessionId", "=", bind<string>("sessionId"));
    if (versions !== undefined)
      q = q.where((eb) =>
        eb.or(
          versions.map((_, i) =>
            eb.and([eb("c.planId", "=", bind<string>(`p${i}`)), eb("c.version", "=", bind<number>(`v${i}`))]),
          ),
        ),
      );
    return q.orderBy("c.version").orderBy("c.lineStart").orderBy("c.createdAt");
  });
}
const commentRows = shapedQuery<PlanCommentRow>();

/** The plan versions these reviews were about, with the review's id (for a fork's copied history). */
export async function listVersionsOfReviews(
  conn: Conn,
  reviewIds: readonly string[],
): Promise<(PlanVersionRow & { reviewId: string })[]> {
  if (reviewIds.length === 0) return [];
  const k = kysely(conn);
  const rows = await k
    .selectFrom("Review as r")
    .innerJoin("PlanVersion as v", (j) => j.onRef("v.planId", "=", "r.planId").onRef("v.version", "=", "r.planVersion"))
    .select(["r.id as reviewId", "r.deciderName", ...VERSION_COLUMNS])
    .where("r.id", "in", [...reviewIds])
    .orderBy("v.createdAt")
    .orderBy("v.version")
    .execute();
  return rows.map((r) => ({ ...r, editedByUser: Boolean(r.editedByUser), verified: null }));
}
