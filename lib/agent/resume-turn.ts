import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { kick } from "./kick";
import { recoverPlanFile } from "../plan/recover-plan-file";

/** Resumes an interrupted turn from the log: pending tool calls run again through the gate, then the model goes on. */
export async function resumeTurn(db: Db, sessionId: string): Promise<{ turn: { id: string } }> {
  const turnId = newId("trn");
  let refused: string | null = null;
  await appendEvents(db, sessionId, (s) => {
    if (s.openTurnId) return [];
    if (!s.interrupted) {
      refused = "Only an interrupted turn can be resumed; send a message to start a new one.";
      return [];
    }
    return [{ type: "turn.started", payload: { turnId, resumed: true } }];
  });
  if (refused) throw new AppError("conflict", refused);
  await recoverPlanFile(db, sessionId);
  kick(db, sessionId);
  return { turn: { id: turnId } };
}
