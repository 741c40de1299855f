import type { TeamMembership } from "../session/log/fold";
import { type Actor, may, mayAnswerMailbox } from "../auth/rules/rights";
import { mayChooseMode, modeRefusal } from "../auth/rules/mode-rights";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { ModeChangeCause } from "../permission";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../session/log/events";
import { getSession } from "../session/get-session";
import { readGates } from "../session/mode-gates";
import { chooseMode, type ModeChoice, type ModeOutcome } from "./mode-choice";
import { planFileEvents, preparePlanFolder, writePlanRows } from "./ensure-plan";
import { loadLeadPeople } from "../review/load-review";
import { setReviewAside } from "../review/set-review-aside";

/**
 * A person's mode choice (the mode control, Shift+Tab, /plan): committed, queued, cancelled or noop. The chooser's
 * right decides which modes they may choose (lib/auth/rules/mode-rights); leaving plan mode while its plan waits for
 * review sets that review aside first, signed by them.
 */
export async function setSessionMode(
  db: Db,
  sessionId: string,
  choice: ModeChoice,
  cause: ModeChangeCause,
  chooser: Actor,
  extra: NewEvent[] = [],
  /** Text the plan slug may be made from when the session has no prompt yet (`/plan <message>`). */
  prompt?: string,
): Promise<{ outcome: ModeOutcome; mode: string; pending: string | null }> {
  const gates = await readGates(db);
  const { session, state: before } = await getSession(db, sessionId);
  const mayChoose = (mode: Parameters<typeof mayChooseMode>[1]) => mayChooseMode(chooser, mode, session.workspace);
  const first = chooseMode(before, choice, gates, cause, mayChoose);
  if (!first.ok) throw refusal(first, session.workspace);
  // A teammate that must have its plan approved stays in plan mode until its lead approves: only the lead's people
  // (or an owner) may take it out by hand, with or without a plan waiting.
  const leadMay = await mayReleaseTeammate(db, before.team, chooser, session.workspace);
  const held = (s: typeof before, target: string) => s.mode === "plan" && target !== "plan" && !leadMay;
  if (held(before, first.target)) throw new AppError("forbidden", TEAMMATE_HELD);
  if (before.mode === "plan" && first.target !== "plan" && before.pendingReview)
    await setReviewAside(db, before.pendingReview.id, chooser, session.workspace);
  let outcome: ModeOutcome = "noop";
  let refused: Error | null = null;
  const { state } = await appendEvents(
    db,
    sessionId,
    (s) => {
      const r = chooseMode(s, choice, gates, cause, mayChoose);
      if (!r.ok) {
        refused = refusal(r, session.workspace);
        return [];
      }
      if (held(s, r.target)) {
        refused = new AppError("forbidden", TEAMMATE_HELD);
        return [];
      }
      outcome = r.outcome;
      const entering = r.events.some((e) => e.type === "mode.changed" && e.payload.to === "plan");
      return [...extra, ...(entering ? planFileEvents(s, sessionId, prompt) : []), ...r.events];
    },
    { also: (run, result) => writePlanRows(run, sessionId, result.events) },
  );
  if (refused) throw refused;
  preparePlanFolder(state);
  return { outcome, mode: state.mode, pending: state.queuedMode };
}

function refusal(
  r: { code: "mode_not_allowed" | "forbidden"; mode: Parameters<typeof modeRefusal>[0]; error: string },
  workspace: string,
) {
  return r.code === "forbidden"
    ? new AppError("forbidden", modeRefusal(r.mode, workspace))
    : new AppError("mode_not_allowed", r.error);
}

const TEAMMATE_HELD =
  "This teammate works in plan mode until its team lead approves its plan: only the lead's people (or an owner) may take it out of plan mode.";

/** Whether `chooser` may take this session out of plan mode by hand: always, unless it is a teammate held for its lead. */
async function mayReleaseTeammate(
  db: Db,
  team: TeamMembership | null,
  chooser: Actor,
  workspace: string,
): Promise<boolean> {
  if (team?.role !== "teammate" || !team.requirePlanApproval) return true;
  const lead = await loadLeadPeople(db, team.id);
  // Its lead session gone: the workspace's owners still may.
  return lead === null ? may(chooser, "manage", workspace) : mayAnswerMailbox(chooser, lead);
}
