import { withTransaction, type Db } from "../db/client";
import { deleteSessionRow } from "../db/sessions";
import { AppError } from "../errors";
import { forgetHint } from "./append-events";
import { getSession } from "./get-session";
import { dropDocs } from "../db/session-log/search-rows";

/** Deletes a session with its events, plans, reviews, asks and grants (the rows cascade); never while it runs. */
export async function deleteSession(db: Db, sessionId: string): Promise<{ deleted: string }> {
  const { state } = await getSession(db, sessionId);
  if (state.openTurnId)
    throw new AppError("turn_in_progress", "The session has an open turn: stop it before deleting it.");
  if (state.team?.role === "lead")
    throw new AppError("conflict", "This session leads a team: its teammates' plans would have no one to answer them.");
  await withTransaction(db, async (trx) => {
    await dropDocs(trx, sessionId);
    await deleteSessionRow(trx, sessionId);
  });
  forgetHint(sessionId);
  return { deleted: sessionId };
}
