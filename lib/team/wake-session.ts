import type { Db } from "../db/client";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";
import { getTeam } from "./get-team";

/**
 * Opens a turn for an idle session (no turn, no pending review or ask) so it reads its mail now, then
 * drives it in the background. `drive` is passed in: tools reach the loop through their runtime.
 */
export async function wakeSession(db: Db, sessionId: string, drive: (id: string) => Promise<void>): Promise<void> {
  const turnId = newId("trn");
  await appendEvents(db, sessionId, (s) =>
    s.openTurnId || s.pendingReview || s.pendingPermissions.length > 0
      ? []
      : [{ type: "turn.started", payload: { turnId } }],
  );
  void drive(sessionId).catch((error: unknown) => console.error(`plangate: drive ${sessionId} failed`, error));
}

/** Whether the lead's model may answer a teammate's plan now (else the plan waits for a person in the mailbox). */
export async function leadModelMayAnswer(db: Db, teamId: string, leadSessionId: string): Promise<boolean> {
  const [{ state }, team] = await Promise.all([getSession(db, leadSessionId), getTeam(db, teamId)]);
  return state.mode !== "plan" && !team.personApproval;
}
