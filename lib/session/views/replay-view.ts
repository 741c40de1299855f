import type { SessionState } from "../log/fold";

/** Replay: what the replay panel shows of a session's state right after event `seq`. */
export type ReplayView = Pick<
  SessionState,
  | "mode"
  | "prePlanMode"
  | "plan"
  | "queuedMode"
  | "status"
  | "pendingReview"
  | "pendingPermissions"
  | "planPath"
  | "team"
> & { seq: number };
