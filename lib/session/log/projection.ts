import { usageSchema, type Usage } from "./events";
import { emptyState, type SessionState } from "./fold";
import { hasUsage } from "./usage";

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

export type ProjectionColumns = ReturnType<typeof projectionColumns>;

export function stateFromRow(row: { state: string; lastSeq: number }): SessionState {
  const parsed = JSON.parse(row.state) as Partial<SessionState>;
  // A row written before step facts were kept says nothing about them: unknown, not zero.
  return { ...emptyState, steps: null, ...parsed, lastSeq: Number(row.lastSeq) };
}

/** The tokens kept in a projected state (its JSON), or null when it has none or is not readable. */
export function usageFromStateJson(state: string | null | undefined): Usage | null {
  if (!state) return null;
  try {
    const parsed = usageSchema.safeParse((JSON.parse(state) as { usage?: unknown }).usage);
    return parsed.success && hasUsage(parsed.data) ? parsed.data : null;
  } catch {
    return null;
  }
}
