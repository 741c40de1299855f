import type { Db } from "../db/client";
import { replyToRequest } from "../db/permissions/requests";
import { appendEvents } from "../session/append-events";
import type { NewEvent } from "../session/log/events";
import { abortLocal } from "./turn-signals";

/**
 * Ends the open turn: pending permission asks are rejected, a model call or command running here is cancelled.
 * A pending review stays pending (aborting never answers it); answering it later opens a new turn.
 */
export async function abortTurn(db: Db, sessionId: string): Promise<{ aborted: boolean }> {
  let aborted = false;
  await appendEvents(
    db,
    sessionId,
    (s) => {
      aborted = s.openTurnId !== null;
      if (!s.openTurnId) return [];
      const events: NewEvent[] = s.pendingPermissions.map((id) => ({
        type: "permission.replied",
        payload: { requestId: id, reply: "reject", message: "The turn was aborted." },
      }));
      events.push({ type: "turn.ended", payload: { turnId: s.openTurnId, reason: "aborted" } });
      return events;
    },
    {
      also: async (run, result) => {
        for (const e of result.events) {
          if (e.type !== "permission.replied") continue;
          await replyToRequest(run, e.payload.requestId, {
            status: "reject",
            message: "The turn was aborted.",
            at: new Date(),
          });
        }
      },
    },
  );
  abortLocal(sessionId);
  return { aborted };
}
