import { sql, type Db } from "../db/client";
import { sideBySide, type SideRow } from "../plan/side-by-side";
import type { Usage } from "../core/events";
import { usageFromStateJson } from "./projection";

export type PlanVersionView = {
  planId: string;
  version: number;
  status: string;
  decision: string | null;
  feedback: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  editedByUser: boolean;
  createdAt: string;
  content: string;
  changes: SideRow[] | null;
  /** For an approved version: verified (pass), failed, or not verified yet. */
  verification: "verified" | "failed" | "not verified" | null;
  /** The reviewer's comments on lines of this version. */
  comments: { lineStart: number; lineEnd: number; quote: string; body: string; author: string }[];
};
export type ModeChangeView = { seq: number; from: string; to: string; cause: string; at: string };
export type PermissionDecisionView = {
  id: string;
  tool: string;
  permission: string;
  patterns: string[];
  status: string;
  scope: string | null;
  message: string | null;
  at: string;
};
export type RelatedSession = {
  id: string;
  title: string;
  relation: "parent" | "subagent" | "forked from" | "fork" | "lead" | "teammate";
};
export type SessionHistory = {
  plans: PlanVersionView[];
  modes: ModeChangeView[];
  permissions: PermissionDecisionView[];
  related: RelatedSession[];
  /** How many there are in all: with `recent`, only the latest of them are listed. */
  totals: { modes: number; permissions: number };
  /** The session's tokens in all; null when its model reported none (offline, scripted). */
  usage: Usage | null;
};

const iso = (d: string | Date | null) => (d === null ? null : new Date(d).toISOString());

/**
 * What happened and why it was allowed: plan versions and verdicts, mode switches, permission replies, linked
 * sessions. `recent` lists only the latest mode switches and permission replies (the session page), so a
 * long session's page reads as much as a short one's; the totals are always given.
 */
export async function sessionHistory(
  db: Db,
  sessionId: string,
  opts: { recent?: number } = {},
): Promise<SessionHistory> {
  const run = await sql(db);
  // The latest rows come newest first from the index and are put back in order below.
  const desc = opts.recent === undefined ? "" : " DESC";
  const limit = opts.recent === undefined ? "" : ` LIMIT ${Math.max(0, Math.floor(opts.recent))}`;
  const [versions, modesDesc, asksDesc, related, commentRows, [counts]] = await Promise.all([
    run.query<{
      planId: string;
      version: number;
      status: string;
      decision: string | null;
      feedback: string | null;
      decidedBy: string | null;
      decidedAt: string | Date | null;
      editedByUser: boolean | number;
      createdAt: string | Date;
      content: string;
      verified: string | null;
    }>(
      'SELECT v."planId", v."version", v."status", v."decision", v."feedback", v."decidedBy", v."decidedAt", v."editedByUser", v."createdAt", v."content", ' +
        '(SELECT x."status" FROM "Verification" x WHERE x."planId" = v."planId" AND x."planVersion" = v."version" ORDER BY x."createdAt" DESC LIMIT 1) AS "verified" FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId" WHERE p."sessionId" = ? ORDER BY p."createdAt", v."version"',
      [sessionId],
    ),
    run.query<{ seq: number; fromMode: string; toMode: string; cause: string; createdAt: string | Date }>(
      `SELECT "seq", "fromMode", "toMode", "cause", "createdAt" FROM "ModeChange" WHERE "sessionId" = ? ORDER BY "seq"${desc}${limit}`,
      [sessionId],
    ),
    run.query<{
      id: string;
      tool: string;
      permission: string;
      patterns: string;
      status: string;
      scope: string | null;
      message: string | null;
      createdAt: string | Date;
      repliedAt: string | Date | null;
    }>(
      `SELECT "id", "tool", "permission", "patterns", "status", "scope", "message", "createdAt", "repliedAt" FROM "PermissionRequest" WHERE "sessionId" = ? ORDER BY "createdAt"${desc}, "id"${desc}${limit}`,
      [sessionId],
    ),
    run.query<{ id: string; title: string; relation: RelatedSession["relation"] }>(
      `SELECT p."id", p."title", 'parent' AS "relation" FROM "Session" s JOIN "Session" p ON p."id" = s."parentId" WHERE s."id" = ?
       UNION ALL SELECT c."id", c."title", 'subagent' FROM "Session" c WHERE c."parentId" = ?
       UNION ALL SELECT f."id", f."title", 'forked from' FROM "Session" s JOIN "Session" f ON f."id" = s."forkedFromId" WHERE s."id" = ?
       UNION ALL SELECT k."id", k."title", 'fork' FROM "Session" k WHERE k."forkedFromId" = ?
       UNION ALL SELECT m."id", m."title", CASE WHEN m."role" = 'lead' THEN 'lead' ELSE 'teammate' END FROM "Session" s JOIN "Session" m ON m."teamId" = s."teamId" WHERE s."id" = ? AND m."id" <> s."id"`,
      [sessionId, sessionId, sessionId, sessionId, sessionId],
    ),
    run.query<{
      planId: string;
      version: number;
      lineStart: number;
      lineEnd: number;
      quote: string;
      body: string;
      author: string;
    }>(
      'SELECT c."planId", c."version", c."lineStart", c."lineEnd", c."quote", c."body", c."author" FROM "PlanComment" c JOIN "Plan" p ON p."id" = c."planId" WHERE p."sessionId" = ? ORDER BY c."version", c."lineStart", c."createdAt"',
      [sessionId],
    ),
    run.query<{ modes: number; permissions: number; state: string | null }>(
      'SELECT (SELECT COUNT(*) FROM "ModeChange" WHERE "sessionId" = ?) AS "modes", (SELECT COUNT(*) FROM "PermissionRequest" WHERE "sessionId" = ?) AS "permissions", ' +
        '(SELECT "state" FROM "Session" WHERE "id" = ?) AS "state"',
      [sessionId, sessionId, sessionId],
    ),
  ]);
  const modes = desc ? [...modesDesc].reverse() : modesDesc;
  const asks = desc ? [...asksDesc].reverse() : asksDesc;
  const plans = versions.map((v, i): PlanVersionView => {
    const prev = versions[i - 1];
    return {
      planId: v.planId,
      version: v.version,
      status: v.status,
      decision: v.decision,
      feedback: v.feedback,
      decidedBy: v.decidedBy,
      decidedAt: iso(v.decidedAt),
      editedByUser: Boolean(v.editedByUser),
      createdAt: iso(v.createdAt) ?? "",
      content: v.content,
      changes: prev && prev.planId === v.planId ? sideBySide(prev.content, v.content) : null,
      verification:
        v.status !== "approved"
          ? null
          : v.verified === "pass"
            ? "verified"
            : v.verified === "fail"
              ? "failed"
              : "not verified",
      comments: commentRows
        .filter((c) => c.planId === v.planId && Number(c.version) === Number(v.version))
        .map((c) => ({
          lineStart: Number(c.lineStart),
          lineEnd: Number(c.lineEnd),
          quote: c.quote,
          body: c.body,
          author: c.author,
        })),
    };
  });
  return {
    plans,
    modes: modes.map((m) => ({
      seq: Number(m.seq),
      from: m.fromMode,
      to: m.toMode,
      cause: m.cause,
      at: iso(m.createdAt) ?? "",
    })),
    permissions: asks.map((a) => ({
      id: a.id,
      tool: a.tool,
      permission: a.permission,
      patterns: JSON.parse(a.patterns) as string[],
      status: a.status,
      scope: a.scope,
      message: a.message,
      at: iso(a.repliedAt ?? a.createdAt) ?? "",
    })),
    related,
    totals: { modes: Number(counts?.modes ?? 0), permissions: Number(counts?.permissions ?? 0) },
    usage: usageFromStateJson(counts?.state),
  };
}
