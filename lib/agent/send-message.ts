import type { Db } from "../db/client";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { kick } from "./kick";

export type SentMessage = { turn: { id: string; queued: boolean } };

/**
 * Starts a turn with the message or, while a turn is open, records it for the next step boundary (the
 * conversation is rebuilt from the log at every step, so a recorded message is a delivered one).
 */
export async function sendMessage(db: Db, sessionId: string, text: string): Promise<SentMessage> {
  const fresh = newId("trn");
  const { state } = await appendEvents(db, sessionId, (s) =>
    s.openTurnId
      ? [{ type: "message.user", payload: { text } }]
      : [
          { type: "message.user", payload: { text } },
          { type: "turn.started", payload: { turnId: fresh, resumed: s.interrupted } },
        ],
  );
  const turnId = state.openTurnId ?? fresh;
  kick(db, sessionId);
  return { turn: { id: turnId, queued: turnId !== fresh } };
}
