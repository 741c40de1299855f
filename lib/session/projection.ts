import { emptyState, type SessionState } from "./fold";

/** The Session columns that mirror the folded state, so lists and filters never replay logs. */
export function projectionColumns(state: SessionState, at: Date) {
  return {
    permissionMode: state.mode,
    prePlanMode: state.prePlanMode,
    planActive: state.plan.active,
    planPending: state.plan.pending,
    status: state.status,
    pendingReviewId: state.pendingReview?.id ?? null,
    pendingAsks: state.pendingPermissions.length + state.pendingChecks.length,
    state: JSON.stringify(state),
    lastSeq: state.lastSeq,
    lastActivityAt: at,
  };
}

export function stateFromRow(row: { state: string; lastSeq: number }): SessionState {
  const parsed = JSON.parse(row.state) as Partial<SessionState>;
  // A row written before step facts were kept says nothing about them: unknown, not zero.
  return { ...emptyState, steps: null, ...parsed, lastSeq: Number(row.lastSeq) };
}
