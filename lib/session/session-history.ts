import { z } from "zod";
import { cursorId, cursorInt, cursorTime, keysetPage } from "./log/cursor";
import { AppError } from "../errors";
import type { Db } from "../db/client";
import {
  listPlanComments,
  listPlanVersionPage,
  listVersionsOfReviews,
  type PlanVersionRow,
} from "../db/session-reads/plan-versions";
import {
  countHistory,
  listModeChanges,
  listPermissionDecisions,
  listCopiedReviewEvents,
  listRelatedSessions,
} from "../db/session-reads/history-rows";
import type { PlanVersionView, SessionHistory } from "./views/history-view";
import { usageFromStateJson } from "./log/projection";
import { sideBySide } from "../plan/views/side-by-side";

export type {
  ModeChangeView,
  PermissionDecisionView,
  PlanVersionView,
  RelatedSession,
  SessionHistory,
} from "./views/history-view";

const iso = (d: Date) => d.toISOString();

const VERDICT: Record<string, PlanVersionView["verification"]> = {
  pass: "verified",
  fail: "failed",
  unverified: "changed, not checked",
};
const verdict = (status: string, verified: string | null): PlanVersionView["verification"] =>
  status !== "approved" ? null : ((verified === null ? undefined : VERDICT[verified]) ?? "not verified");

/** How many plan versions a History page holds unless asked for another number (at most 200). */
export const HISTORY_PLANS = 20;

/**
 * Where a page of plan versions ended: among the session's own versions (its plan's creation in ms, the plan's id,
 * the version), or among the versions a fork copied from its source, which come after (older than) all its own.
 */
export const planVersionCursor = z.discriminatedUnion("k", [
  z
    .object({
      k: z.literal("own"),
      at: cursorTime,
      planId: cursorId,
      version: cursorInt,
    })
    .strict(),
  z.object({ k: z.literal("fork"), planId: cursorId, version: cursorInt }).strict(),
]);
export type PlanVersionPosition = z.infer<typeof planVersionCursor>;

export type HistoryOptions = {
  /** Only the latest this many mode switches and permission replies (the session page); all when not given. */
  recent?: number;
  /** How many plan versions, newest first (HISTORY_PLANS when not given). */
  plansLimit?: number;
  /** The plan versions after this position (the `plansNext` of the page before). */
  plansAfter?: PlanVersionPosition;
};

/** A listed version: its row, and its plan's creation (ms) when it is the session's own (null: a fork's copy). */
type Listed = { row: PlanVersionRow; planAt: number | null };

/**
 * What happened and why it was allowed: plan versions and verdicts, mode switches, permission replies, linked
 * sessions. Plan versions are the heaviest rows (their text and a side-by-side diff each): a page of them, newest
 * first, `plansNext` leading to the older ones. `recent` lists only the latest mode switches and permission replies:
 * the session page, so a long session's page does as much as a short one's. The totals are always given.
 */
export async function sessionHistory(db: Db, sessionId: string, opts: HistoryOptions = {}): Promise<SessionHistory> {
  const latest = opts.recent === undefined ? {} : { latest: Math.max(0, Math.floor(opts.recent)) };
  const limit = Math.max(1, Math.floor(opts.plansLimit ?? HISTORY_PLANS));
  const after = opts.plansAfter;
  const ownAfter =
    after?.k === "own" ? { planAt: new Date(after.at), planId: after.planId, version: after.version } : undefined;
  const [own, copied, modes, asks, related, counts] = await Promise.all([
    after?.k === "fork" ? [] : listPlanVersionPage(db, sessionId, ownAfter, limit),
    copiedPlanVersions(db, sessionId),
    listModeChanges(db, sessionId, latest),
    listPermissionDecisions(db, sessionId, latest),
    listRelatedSessions(db, sessionId),
    countHistory(db, sessionId),
  ]);
  // Newest first: the session's own versions, then (once those run out) the ones a fork copied, which are older.
  const older = copied.toReversed();
  const from =
    after?.k === "fork" ? older.findIndex((v) => v.planId === after.planId && v.version === after.version) + 1 : 0;
  if (from === 0 && after?.k === "fork") throw new AppError("bad_request", "plansAfter: not a cursor this list gave");
  const ordered: Listed[] = [
    ...own.map((row) => ({ row, planAt: row.planCreatedAt.getTime() })),
    ...(own.length > limit ? [] : older.slice(from).map((row) => ({ row, planAt: null }))),
  ];
  const { page, next } = keysetPage(
    ordered,
    limit,
    ({ row, planAt }): PlanVersionPosition =>
      planAt === null
        ? { k: "fork", planId: row.planId, version: row.version }
        : { k: "own", at: planAt, planId: row.planId, version: row.version },
  );
  const comments = await listPlanComments(
    db,
    sessionId,
    page.filter((p) => p.planAt !== null).map((p) => ({ planId: p.row.planId, version: p.row.version })),
  );
  // Each version is diffed against the one before it, which is the next row read (read, never shown, on a last row).
  const plans = page.map(({ row: v }, j): PlanVersionView => {
    const prev = ordered[j + 1]?.row;
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
    plansNext: next,
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
    totals: { modes: counts.modes, permissions: counts.permissions, plans: counts.plans + copied.length },
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
