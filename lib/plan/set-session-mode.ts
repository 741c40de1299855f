import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { ModeChangeCause } from "../permission";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../core/events";
import { readGates } from "../session/mode-gates";
import { chooseMode, type ModeChoice, type ModeOutcome } from "./mode-choice";
import { planFileEvents, preparePlanFolder, writePlanRows } from "./ensure-plan";

/** A person's mode choice (the mode control, Shift+Tab, /plan): committed, queued, cancelled or noop. */
export async function setSessionMode(
  db: Db,
  sessionId: string,
  choice: ModeChoice,
  cause: ModeChangeCause,
  extra: NewEvent[] = [],
  /** Text the plan slug may be made from when the session has no prompt yet (`/plan <message>`). */
  prompt?: string,
): Promise<{ outcome: ModeOutcome; mode: string; pending: string | null }> {
  const gates = await readGates(db);
  let outcome: ModeOutcome = "noop";
  let refused: string | null = null;
  const { state } = await appendEvents(
    db,
    sessionId,
    (s) => {
      const r = chooseMode(s, choice, gates, cause);
      if (!r.ok) {
        refused = r.error;
        return [];
      }
      outcome = r.outcome;
      const entering = r.events.some((e) => e.type === "mode.changed" && e.payload.to === "plan");
      return [...extra, ...(entering ? planFileEvents(s, sessionId, prompt) : []), ...r.events];
    },
    { also: (run, result) => writePlanRows(run, sessionId, result.events) },
  );
  if (refused) throw new AppError("mode_not_allowed", refused);
  preparePlanFolder(state);
  return { outcome, mode: state.mode, pending: state.queuedMode };
}
