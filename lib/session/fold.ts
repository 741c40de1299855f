import type { Mode, SessionEvent, NewEvent, SessionStatus } from "./events";
import type { ModeChangeCause as ModeCause } from "../permission/modes";

export type PendingReview = { id: string; kind: string };

/** Everything about a session that is recoverable from its log alone. */
export type SessionState = {
  title: string;
  workspace: string;
  agent: string;
  model: string;
  planSlug: string | null;
  planPath: string | null;
  planId: string | null;
  /** The first thing the user asked: plan slugs are made from it. */
  firstPrompt: string | null;
  parentId: string | null;
  mode: Mode;
  prePlanMode: Mode | null;
  plan: { active: boolean; pending: boolean };
  queuedMode: Mode | null;
  queuedCause: ModeCause | null;
  openTurnId: string | null;
  /** A tool call of the open turn waiting on a child session. */
  waitingOn: { callId: string; on: string } | null;
  interrupted: boolean;
  pendingReview: PendingReview | null;
  pendingPermissions: string[];
  status: SessionStatus;
  lastSeq: number;
};

export const emptyState: SessionState = Object.freeze({
  title: "",
  workspace: "",
  agent: "build",
  model: "offline",
  planSlug: null,
  planPath: null,
  planId: null,
  firstPrompt: null,
  parentId: null,
  mode: "default",
  prePlanMode: null,
  plan: Object.freeze({ active: false, pending: false }),
  queuedMode: null,
  queuedCause: null,
  openTurnId: null,
  waitingOn: null,
  interrupted: false,
  pendingReview: null,
  pendingPermissions: Object.freeze([]) as unknown as string[],
  status: "idle",
  lastSeq: 0,
}) as SessionState;

function deriveStatus(s: Omit<SessionState, "status" | "plan">): SessionStatus {
  if (s.pendingReview) return "awaiting_review";
  if (s.pendingPermissions.length > 0) return "awaiting_permission";
  if (s.openTurnId) return "running";
  if (s.interrupted) return "interrupted";
  return "idle";
}

function finish(s: Omit<SessionState, "status" | "plan">): SessionState {
  const active = s.mode === "plan";
  const pending = s.queuedMode !== null && (s.queuedMode === "plan") !== active;
  return { ...s, plan: { active, pending }, status: deriveStatus(s) };
}

/** Applies one event. Unknown-to-state events only advance lastSeq. */
export function applyEvent(state: SessionState, event: NewEvent & { seq?: number }): SessionState {
  const lastSeq = event.seq ?? state.lastSeq + 1;
  const s = { ...state, lastSeq };
  switch (event.type) {
    case "session.created": {
      const p = event.payload;
      return finish({
        ...s,
        title: p.title,
        workspace: p.workspace,
        agent: p.agent,
        model: p.model,
        mode: p.mode,
        prePlanMode: p.prePlanMode ?? null,
        planSlug: p.planSlug ?? null,
        parentId: p.parentId ?? null,
      });
    }
    case "mode.changed": {
      const p = event.payload;
      // A committed switch fulfils (or supersedes) any queued choice.
      return finish({ ...s, mode: p.to, prePlanMode: p.prePlanMode, queuedMode: null, queuedCause: null });
    }
    case "message.user":
      return s.firstPrompt === null ? { ...s, firstPrompt: event.payload.text.slice(0, 500) } : s;
    case "plan.created":
      return { ...s, planId: event.payload.planId, planSlug: event.payload.slug, planPath: event.payload.path };
    case "mode.queued":
      return finish({ ...s, queuedMode: event.payload.target, queuedCause: event.payload.target ? event.payload.cause : null });
    case "turn.started":
      return finish({ ...s, openTurnId: event.payload.turnId, interrupted: false });
    case "turn.ended":
      return finish({ ...s, openTurnId: null, waitingOn: null, interrupted: false });
    case "turn.interrupted":
      return finish({ ...s, openTurnId: null, waitingOn: null, interrupted: true });
    case "tool.waiting":
      return finish({ ...s, waitingOn: { callId: event.payload.callId, on: event.payload.on } });
    case "tool.result":
      return s.waitingOn?.callId === event.payload.callId ? finish({ ...s, waitingOn: null }) : s;
    case "review.asked":
      return finish({ ...s, pendingReview: { id: event.payload.reviewId, kind: event.payload.kind } });
    case "review.answered":
      return finish(
        s.pendingReview?.id === event.payload.reviewId ? { ...s, pendingReview: null } : s,
      );
    case "permission.asked":
      return finish({ ...s, pendingPermissions: [...s.pendingPermissions, event.payload.requestId] });
    case "permission.replied":
      return finish({ ...s, pendingPermissions: s.pendingPermissions.filter((r) => r !== event.payload.requestId) });
    case "session.forked":
      // A fork carries its parent's log up to the fork point; nothing is running in the copy.
      return finish({ ...s, openTurnId: null, waitingOn: null, pendingReview: null, pendingPermissions: [], queuedMode: null, queuedCause: null });
    default:
      return s.lastSeq === state.lastSeq ? state : { ...state, lastSeq };
  }
}

/** Rebuilds a session's state from its log (optionally only up to a seq, for replay). */
export function foldEvents(events: Iterable<SessionEvent | (NewEvent & { seq?: number })>, uptoSeq = Infinity, from = emptyState): SessionState {
  let state = from;
  for (const e of events) {
    if (e.seq !== undefined && e.seq > uptoSeq) break;
    state = applyEvent(state, e);
  }
  return state;
}
