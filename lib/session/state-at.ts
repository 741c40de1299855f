import type { Db } from "../db/client";
import { AppError } from "../errors";
import { foldEvents } from "./log/fold";
import { getSession } from "./get-session";
import { readEvents } from "../db/session-log/read-events";
import type { ReplayView } from "./views/replay-view";

export type { ReplayView } from "./views/replay-view";

/** Replay: the session's state right after event `seq`, folded from the log alone. */
export async function stateAt(db: Db, sessionId: string, seq: number): Promise<ReplayView> {
  const { state: live } = await getSession(db, sessionId);
  if (seq < 1 || seq > live.lastSeq) throw new AppError("bad_request", `at: must be between 1 and ${live.lastSeq}`);
  // At the last event the projection is the fold of the whole log (kept by every append): no replay needed.
  const s = seq === live.lastSeq ? live : foldEvents(await readEvents(db, sessionId, { upto: seq }));
  return {
    seq,
    mode: s.mode,
    prePlanMode: s.prePlanMode,
    plan: s.plan,
    queuedMode: s.queuedMode,
    status: s.status,
    pendingReview: s.pendingReview,
    pendingPermissions: s.pendingPermissions,
    planPath: s.planPath,
    team: s.team,
  };
}
