import type { Db } from "../db/client";
import {
  countHistory,
  listModeChanges,
  listPermissionDecisions,
  listCopiedReviewEvents,
  listPlanComments,
  listPlanVersions,
  listRelatedSessions,
  listVersionsOfReviews,
  type PlanVersionRow,
} from "../db/session-reads/session-history";
import type { PlanVersionView, SessionHistory } from "../core/history-view";
import { usageFromStateJson } from "../core/projection";
import { sideBySide } from "../core/side-by-side";

export type {
  ModeChangeView,
  PermissionDecisionView,
  PlanVersionView,
  RelatedSession,
  SessionHistory,
} from "../core/history-view";

const iso = (d: Date) => d.toISOString();

const VERDICT: Record<string, PlanVersionView["verification"]> = {
  pass: "verified",
  fail: "failed",
  unverified: "changed, not checked",
};
const verdict = (status: string, verified: string | null): PlanVersionView["verification"] =>
  status !== "approved" ? null : ((verified === null ? undefined : VERDICT[verified]) ?? "not verified");

/**
 * What happened and why it was allowed: plan versions and verdicts, mode switches, permission replies, linked
 * sessions. `recent` lists only the latest mode switches and permission replies and `plans` only the latest plan
 * versions (each with its side-by-side changes): the session page, so a long session's page does as much as a
 * short one's. The totals are always given.
 */
export async function sessionHistory(
  db: Db,
  sessionId: string,
  opts: { recent?: number; plans?: number } = {},
): Promise<SessionHistory> {
  const latest = opts.recent === undefined ? {} : { latest: Math.max(0, Math.floor(opts.recent)) };
  const [own, copied, modes, asks, related, comments, counts] = await Promise.all([
    listPlanVersions(db, sessionId),
    copiedPlanVersions(db, sessionId),
    listModeChanges(db, sessionId, latest),
    listPermissionDecisions(db, sessionId, latest),
    listRelatedSessions(db, sessionId),
    listPlanComments(db, sessionId),
    countHistory(db, sessionId),
  ]);
  const versions = [...copied, ...own];
  // The latest versions only, when asked: each is diffed against the one before it (which is read, never shown).
  const first = opts.plans === undefined ? 0 : Math.max(0, versions.length - Math.max(0, Math.floor(opts.plans)));
  const plans = versions.slice(first).map((v, j): PlanVersionView => {
    const prev = versions[first + j - 1];
    return {
      planId: v.planId,
      version: v.version,
      status: v.status,
      decision: v.decision,
      feedback: v.feedback,
      decidedBy: v.deciderName ?? v.decidedBy,
      decidedAt: v.decidedAt === null ? null : iso(v.decidedAt),
      editedByUser: v.editedByUser,
      createdAt: iso(v.createdAt),
      content: v.content,
      changes: prev && prev.planId === v.planId ? sideBySide(prev.content, v.content) : null,
      verification: verdict(v.status, v.verified),
      comments: comments
        .filter((c) => c.planId === v.planId && c.version === v.version)
        .map((c) => ({ lineStart: c.lineStart, lineEnd: c.lineEnd, quote: c.quote, body: c.body, author: c.author })),
    };
  });
  return {
    plans,
    modes: modes.map((m) => ({ seq: m.seq, from: m.fromMode, to: m.toMode, cause: m.cause, at: iso(m.createdAt) })),
    permissions: asks.map((a) => ({
      id: a.id,
      tool: a.tool,
      permission: a.permission,
      patterns: JSON.parse(a.patterns) as string[],
      status: a.status,
      scope: a.scope,
      message: a.message,
      at: iso(a.repliedAt ?? a.createdAt),
    })),
    related,
    totals: { modes: counts.modes, permissions: counts.permissions, plans: versions.length },
    usage: usageFromStateJson(counts.state),
  };
}

const CANCELLED_IN_FORK = "Pending when the session was forked: its review stays with the original session.";

/**
 * A fork's log carries its source's plan versions up to the fork point, but their rows stay the source's: the
 * versions its copied log asked a review of, as they stood at the fork point (a review answered later, in the
 * source, was cancelled in the fork; a verification run later is not the fork's).
 */
async function copiedPlanVersions(db: Db, sessionId: string): Promise<PlanVersionRow[]> {
  const events = await listCopiedReviewEvents(db, sessionId);
  if (events.length === 0) return [];
  const asked: string[] = [];
  const answered = new Set<string>();
  const verified = new Map<number, string>();
  for (const e of events) {
    const payload = JSON.parse(e.payload) as { reviewId?: string; planVersion?: number; status?: string };
    if (e.type === "review.asked" && payload.reviewId) asked.push(payload.reviewId);
    if (e.type === "review.answered" && payload.reviewId) answered.add(payload.reviewId);
    if (e.type === "verification.completed" && payload.planVersion !== undefined && payload.status)
      verified.set(payload.planVersion, payload.status);
  }
  const seen = new Set<string>();
  return (await listVersionsOfReviews(db, asked)).flatMap(({ reviewId, ...row }) => {
    const key = `${row.planId}:${row.version}`;
    if (seen.has(key)) return [];
    seen.add(key);
    if (answered.has(reviewId)) return [{ ...row, verified: verified.get(row.version) ?? null }];
    const undecided = { decision: null, decidedBy: null, deciderName: null, decidedAt: null, verified: null };
    return [{ ...row, ...undecided, status: "cancelled", feedback: CANCELLED_IN_FORK }];
  });
}
