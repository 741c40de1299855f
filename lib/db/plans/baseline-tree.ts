import "server-only";
import { sql } from "kysely";
import { type Conn, kysely } from "../client";

/**
 * PlanVersion.baselineTree: the workspace as a git tree when the version was approved, which verification
 * diffs against (outside git "manifest", with the manifest beside it). Written once, after the approval, by the
 * holder of the session's turn lease.
 */
export type LatestApproval = {
  versionId: string;
  planId: string;
  version: number;
  content: string;
  /** Null while the snapshot is still owed. */
  baselineTree: string | null;
  workspace: string;
  /** The review that approved it (null when none can be found). */
  reviewId: string | null;
};

/** The session's most recently approved plan version. */
export async function latestApproval(conn: Conn, sessionId: string): Promise<LatestApproval | null> {
  const row = await latestApprovalQuery(conn, sessionId).executeTakeFirst();
  return row ? { ...row, reviewId: row.reviewId ?? null } : null;
}

/** Apart from its execution so that a test can read SQLite's plan for it: every step an index, never a scan. */
export function latestApprovalQuery(conn: Conn, sessionId: string) {
  return kysely(conn)
    .selectFrom("PlanVersion as v")
    .innerJoin("Plan as p", "p.id", "v.planId")
    .innerJoin("Session as s", "s.id", "p.sessionId")
    .select((eb) => [
      "v.id as versionId",
      "v.planId",
      "v.version",
      "v.content",
      "v.baselineTree",
      "s.workspace",
      eb
        .selectFrom("Review as r")
        .select("r.id")
        .whereRef("r.planId", "=", "v.planId")
        .whereRef("r.planVersion", "=", "v.version")
        .where("r.decision", "=", "approve")
        .limit(1)
        .as("reviewId"),
    ])
    .where("p.sessionId", "=", sessionId)
    .where("v.status", "=", "approved")
    .orderBy("v.decidedAt", "desc")
    .limit(1);
}

/**
 * Writes the baseline only while `leaseToken` still holds the session's lease and none was written: a holder
 * that outlived its lease (slow, or thought dead) writes nothing. True when this call wrote it.
 */
export async function recordBaselineTree(
  conn: Conn,
  w: { versionId: string; tree: string; manifest?: string; sessionId: string; leaseToken: string },
): Promise<boolean> {
  const r = await kysely(conn)
    .updateTable("PlanVersion")
    .set({ baselineTree: w.tree, ...(w.manifest !== undefined ? { baselineManifest: w.manifest } : {}) })
    .where("id", "=", w.versionId)
    .where("baselineTree", "is", null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("Session")
          .select(sql<number>`1`.as("x"))
          .where("id", "=", w.sessionId)
          .where("leaseOwner", "=", w.leaseToken),
      ),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The stored manifest of a version approved outside git (its own read: it can be large, and only verification wants it). */
export async function findBaselineManifest(conn: Conn, versionId: string): Promise<string | null> {
  const row = await kysely(conn)
    .selectFrom("PlanVersion")
    .select("baselineManifest")
    .where("id", "=", versionId)
    .executeTakeFirst();
  return row?.baselineManifest ?? null;
}

/** How many of a workspace's most recently active sessions are looked at for an earlier manifest. */
const RECENT_SESSIONS = 20;

/**
 * The most recent manifest stored for a workspace (its latest approval outside git), for a new manifest to reuse
 * its unchanged files' hashes. Bounded by the workspace's last few sessions (the Session index on workspace and
 * activity), so the look-up does not grow with the workspace's history; none among them is just no reuse.
 */
export async function latestWorkspaceManifest(conn: Conn, workspace: string): Promise<string | null> {
  const row = await kysely(conn)
    .selectFrom("PlanVersion as v")
    .innerJoin("Plan as p", "p.id", "v.planId")
    .select("v.baselineManifest")
    .where((eb) =>
      eb(
        "p.sessionId",
        "in",
        eb
          .selectFrom("Session as s")
          .select("s.id")
          .where("s.workspace", "=", workspace)
          .orderBy("s.lastActivityAt", "desc")
          .limit(RECENT_SESSIONS),
      ),
    )
    .where("v.baselineTree", "=", "manifest")
    .where("v.baselineManifest", "is not", null)
    .orderBy("v.decidedAt", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.baselineManifest ?? null;
}

/**
 * Whether the log has a tool call after the approval's answer (an approval that cannot be found in the log
 * counts as yes). Reads SessionEvent, whose rows the session log writes; here because only the baseline asks.
 */
export async function toolCalledSinceApproval(conn: Conn, sessionId: string, reviewId: string): Promise<boolean> {
  const k = kysely(conn);
  // Payloads are stored as JSON.stringify wrote them; review ids are [a-z0-9_], so LIKE needs no escaping.
  const approval = await k
    .selectFrom("SessionEvent")
    .select("seq")
    .where("sessionId", "=", sessionId)
    .where("type", "=", "review.answered")
    .where("payload", "like", `%"reviewId":${JSON.stringify(reviewId)}%`)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!approval) return true;
  const called = await k
    .selectFrom("SessionEvent")
    .select("seq")
    .where("sessionId", "=", sessionId)
    .where("type", "=", "tool.called")
    .where("seq", ">", approval.seq)
    .limit(1)
    .executeTakeFirst();
  return called !== undefined;
}
