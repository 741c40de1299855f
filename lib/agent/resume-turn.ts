import type { Db } from "../db/client";
import { newId } from "../id";
import { type MayCarry, resumeMode } from "../permission";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../session/log/events";
import { kick } from "./kick";
import { readGates } from "../session/mode-gates";
import { recoverPlanFile } from "../plan/recover-plan-file";

/**
 * Resumes a session from its log. Its mode is checked again first: bypassPermissions never comes back, auto
 * only while its gate is open, a mode that answers asks only when the person resuming may choose it (`mayCarry`),
 * plan stays plan (the plan file is recovered). An interrupted turn then goes on (pending tool calls run again
 * through the gate); an idle session just waits for its next message.
 */
export async function resumeTurn(
  db: Db,
  sessionId: string,
  mayCarry: MayCarry,
): Promise<{ turn: { id: string } | null; mode: string }> {
  const turnId = newId("trn");
  const gates = await readGates(db);
  let resumed = false;
  const { state } = await appendEvents(db, sessionId, (s) => {
    if (s.openTurnId) return [];
    const t = resumeMode(s.mode, s.prePlanMode, gates, mayCarry);
    const out: NewEvent[] = t.changed
      ? [
          {
            type: "mode.changed",
            payload: { from: s.mode, to: t.next.mode, prePlanMode: t.next.prePlanMode, cause: "resume" },
          },
        ]
      : [];
    resumed = s.interrupted;
    if (s.interrupted) out.push({ type: "turn.started", payload: { turnId, resumed: true } });
    return out;
  });
  await recoverPlanFile(db, sessionId);
  if (resumed) kick(db, sessionId);
  return { turn: resumed ? { id: turnId } : null, mode: state.mode };
}
