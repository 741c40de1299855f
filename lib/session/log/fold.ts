import type { Mode, SessionEvent, NewEvent, SessionStatus, Usage } from "./events";
import type { ModeChangeCause as ModeCause } from "../../permission/modes";

export type PendingReview = { id: string; kind: string };

/** The next attempt of a failed model request, while the turn waits for it. */
export type PendingRetry = { attempt: number; of: number; retryAt: string; reason: string };

export type TeamMembership = {
  id: string;
  role: "lead" | "teammate";
  name: string;
  leadSessionId: string;
  requirePlanApproval: boolean;
};

/**
 * Counts a model step needs, kept by the fold so that no step (and no restart) has to re-read the whole log:
 * model requests so far, since the open turn started and since plan mode was entered; the mode the last
 * request described and the cause of a mode change after it; the seq of the last compaction (0: none).
 */
export type StepFacts = {
  modelCalls: number;
  inTurn: number;
  inPlan: number;
  described: Mode | "" | null;
  causeSince: ModeCause | null;
  compactedAt: number;
};

export const noSteps: StepFacts = Object.freeze({
  modelCalls: 0,
  inTurn: 0,
  inPlan: 0,
  described: null,
  causeSince: null,
  compactedAt: 0,
});

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
  team: TeamMembership | null;
  mode: Mode;
  prePlanMode: Mode | null;
  plan: { active: boolean; pending: boolean };
  queuedMode: Mode | null;
  queuedCause: ModeCause | null;
  openTurnId: string | null;
  /** A tool call of the open turn waiting on a child session. */
  waitingOn: { callId: string; on: string } | null;
  /** The turn stopped (a crash, or an error after the last retry) and can be resumed from the log. */
  interrupted: boolean;
  /** The open turn is waiting to try its model request again. */
  retry: PendingRetry | null;
  /** Tokens the open turn (or the last one) used, and the session in all. */
  turnUsage: Usage;
  usage: Usage;
  pendingReview: PendingReview | null;
  /**
   * Issue 41: a plan of this session was approved here (signed, never an imported file's claim). Until then every
   * path the workspace's review policy names is held for its owners; from then on, what the approval left held.
   */
  planApproved?: true;
  /** Issue 27: set by an approval under a review policy: files under these patterns ask before they change. */
  heldPaths?: string[];
  /** Issue 41: whom each held pattern belongs to (only they answer an ask under it); absent before it was recorded. */
  heldFor?: { pattern: string; reviewers: string[] }[];
  /** How the last check of the work against its approved plan ended, until the next plan is submitted. */
  verification?: "pass" | "fail" | "unverified";
  /** The seq of the last message a person (or a team's mail) sent: one that arrived during a model request is answered. */
  lastUserSeq?: number;
  pendingPermissions: string[];
  /** Asks outside any turn (may the workspace's verify command run?): waiting on a person, holding up nothing. */
  pendingChecks: string[];
  status: SessionStatus;
  /** null in a projection written before these were kept: the driver then folds the whole log once. */
  steps: StepFacts | null;
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
  team: null,
  mode: "default",
  prePlanMode: null,
  plan: Object.freeze({ active: false, pending: false }),
  queuedMode: null,
  queuedCause: null,
  openTurnId: null,
  waitingOn: null,
  interrupted: false,
  retry: null,
  turnUsage: Object.freeze({ input: 0, output: 0 }) as Usage,
  usage: Object.freeze({ input: 0, output: 0 }) as Usage,
  pendingReview: null,
  pendingPermissions: Object.freeze([]) as unknown as string[],
  pendingChecks: Object.freeze([]) as unknown as string[],
  status: "idle",
  steps: noSteps,
  lastSeq: 0,
}) as SessionState;

function deriveStatus(s: SessionState): SessionStatus {
  if (s.pendingReview) return "awaiting_review";
  if (s.pendingPermissions.length > 0) return "awaiting_permission";
  if (s.openTurnId) return "running";
  if (s.pendingChecks.length > 0) return "awaiting_permission";
  if (s.interrupted) return "interrupted";
  return "idle";
}

function finish(s: SessionState): SessionState {
  const active = s.mode === "plan";
  const pending = s.queuedMode !== null && (s.queuedMode === "plan") !== active;
  s.plan = s.plan.active === active && s.plan.pending === pending ? s.plan : { active, pending };
  s.status = deriveStatus(s);
  return s;
}

/**
 * Applies one event to a private copy (`s` is never shared): fields are reassigned, nested values replaced,
 * never mutated, so earlier states stay valid. plan and status are derived by finish().
 */
function reduce(s: SessionState, event: NewEvent & { seq?: number }): void {
  s.lastSeq = event.seq ?? s.lastSeq + 1;
  switch (event.type) {
    case "session.created": {
      const p = event.payload;
      Object.assign(s, { title: p.title, workspace: p.workspace, agent: p.agent, model: p.model, mode: p.mode });
      s.prePlanMode = p.prePlanMode ?? null;
      s.planSlug = p.planSlug ?? null;
      s.parentId = p.parentId ?? null;
      return;
    }
    case "mode.changed":
      if (s.steps)
        s.steps = {
          ...s.steps,
          inPlan: event.payload.to === "plan" ? 0 : s.steps.inPlan,
          causeSince: event.payload.cause,
        };
      // A committed switch fulfils (or supersedes) any queued choice.
      s.mode = event.payload.to;
      s.prePlanMode = event.payload.prePlanMode;
      s.queuedMode = null;
      s.queuedCause = null;
      return;
    case "message.user":
      if (s.firstPrompt === null) s.firstPrompt = event.payload.text.slice(0, 500);
      s.lastUserSeq = s.lastSeq;
      return;
    case "plan.created":
      s.planId = event.payload.planId;
      s.planSlug = event.payload.slug;
      s.planPath = event.payload.path;
      return;
    case "mode.queued":
      s.queuedMode = event.payload.target;
      s.queuedCause = event.payload.target ? event.payload.cause : null;
      return;
    case "message.assistant":
      s.retry = null;
      if (event.payload.usage) {
        s.turnUsage = addUsage(s.turnUsage, event.payload.usage);
        s.usage = addUsage(s.usage, event.payload.usage);
      }
      if (s.steps) {
        const n = s.steps;
        s.steps = {
          ...n,
          modelCalls: n.modelCalls + 1,
          inTurn: n.inTurn + 1,
          inPlan: n.inPlan + 1,
          described: event.payload.mode ?? "",
          causeSince: null,
        };
      }
      return;
    case "compaction":
      if (s.steps) s.steps = { ...s.steps, compactedAt: s.lastSeq };
      return;
    case "turn.started":
      if (s.steps) s.steps = { ...s.steps, inTurn: 0 };
      s.openTurnId = event.payload.turnId;
      s.interrupted = false;
      s.retry = null;
      s.turnUsage = emptyState.turnUsage;
      return;
    case "turn.ended":
    case "turn.interrupted":
      s.openTurnId = null;
      s.waitingOn = null;
      s.retry = null;
      // A turn that failed after its last retry is resumable, like one a crash cut.
      s.interrupted = event.type === "turn.interrupted" || event.payload.reason === "error";
      return;
    case "model.retrying":
      if (s.openTurnId === event.payload.turnId)
        s.retry = {
          attempt: event.payload.attempt,
          of: event.payload.of,
          retryAt: event.payload.retryAt,
          reason: event.payload.reason,
        };
      return;
    case "tool.waiting":
      s.waitingOn = { callId: event.payload.callId, on: event.payload.on };
      return;
    case "tool.result":
      if (s.waitingOn?.callId === event.payload.callId) s.waitingOn = null;
      return;
    case "review.asked":
      s.pendingReview = { id: event.payload.reviewId, kind: event.payload.kind };
      if (event.payload.kind === "plan-review") delete s.verification;
      return;
    case "verification.completed":
      s.verification = event.payload.status;
      return;
    case "review.answered":
      if (s.pendingReview?.id === event.payload.reviewId) s.pendingReview = null;
      // Each approval says afresh what it leaves held; the state carries the field only while something is. An
      // imported file's approval is its claim, nobody's decision here: it releases nothing (issue 41).
      if (event.payload.decision === "approve" && event.payload.imported !== true) {
        s.planApproved = true;
        if (event.payload.held?.length) s.heldPaths = event.payload.held;
        else delete s.heldPaths;
        if (event.payload.held?.length && event.payload.heldFor?.length) s.heldFor = event.payload.heldFor;
        else delete s.heldFor;
      }
      return;
    case "permission.asked":
      if (event.payload.purpose === "verify") s.pendingChecks = [...s.pendingChecks, event.payload.requestId];
      else s.pendingPermissions = [...s.pendingPermissions, event.payload.requestId];
      return;
    case "permission.replied":
      s.pendingPermissions = s.pendingPermissions.filter((r) => r !== event.payload.requestId);
      s.pendingChecks = s.pendingChecks.filter((r) => r !== event.payload.requestId);
      return;
    case "team.joined": {
      const p = event.payload;
      s.team = {
        id: p.teamId,
        role: p.role,
        name: p.name,
        leadSessionId: p.leadSessionId,
        requirePlanApproval: p.requirePlanApproval ?? false,
      };
      return;
    }
    case "session.forked":
      // A fork carries its parent's log up to the fork point; nothing is running in the copy.
      Object.assign(s, {
        openTurnId: null,
        waitingOn: null,
        retry: null,
        pendingReview: null,
        pendingPermissions: [],
        pendingChecks: [],
        queuedMode: null,
        queuedCause: null,
        team: null,
      });
      return;
    default:
      return;
  }
}

/** Two usages summed; cache counts are kept only once a provider reported them. */
export function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = { input: a.input + b.input, output: a.output + b.output };
  if (a.cacheRead !== undefined || b.cacheRead !== undefined) out.cacheRead = (a.cacheRead ?? 0) + (b.cacheRead ?? 0);
  if (a.cacheWrite !== undefined || b.cacheWrite !== undefined)
    out.cacheWrite = (a.cacheWrite ?? 0) + (b.cacheWrite ?? 0);
  return out;
}

/** Applies one event, returning a new state. */
export function applyEvent(state: SessionState, event: NewEvent & { seq?: number }): SessionState {
  const s = { ...state };
  reduce(s, event);
  return finish(s);
}

/** Rebuilds a session's state from its log (optionally only up to a seq, for replay). */
export function foldEvents(
  events: Iterable<SessionEvent | (NewEvent & { seq?: number })>,
  uptoSeq = Infinity,
  from = emptyState,
): SessionState {
  // One private copy for the whole fold: no per-event allocation, plan and status derived once at the end.
  const s = { ...from };
  for (const e of events) {
    if (e.seq !== undefined && e.seq > uptoSeq) break;
    reduce(s, e);
  }
  return finish(s);
}
