import "server-only";
import { type Act, type Actor, may } from "../core/people";
import type { Db } from "../db/client";
import { findSessionWorkspace } from "../db/sessions";
import { AppError } from "../errors";

const VERB: Record<Act, string> = {
  read: "read",
  submit: "submit plans or asks",
  start: "start sessions",
  chat: "chat",
  decide: "decide plans",
  answer: "answer asks",
  manage: "manage people, tokens and trust",
};

/** Throws 403 unless `actor` may do `act` in `workspace` (its roles over the workspace roots that cover it). */
export function authorise(actor: Actor, act: Act, workspace: string): void {
  if (!may(actor, act, workspace))
    throw new AppError("forbidden", `You may not ${VERB[act]} in ${workspace}: ask an owner for a role there.`);
}

/** authorise() against a session's workspace; a session that does not exist is left to the route's 404. */
export async function authoriseSession(db: Db, actor: Actor, act: Act, sessionId: string): Promise<void> {
  if (actor.kind === "operator") return;
  const workspace = await findSessionWorkspace(db, sessionId);
  if (workspace !== undefined) authorise(actor, act, workspace);
}
