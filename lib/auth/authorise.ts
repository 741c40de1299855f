import "server-only";
import {
  type Act,
  type Actor,
  may,
  mayAddTeammate,
  mayAnswerMailbox,
  mayOnAgentSession,
  type Signer,
  signerOf,
} from "./rules/rights";
import type { Db } from "../db/client";
import { findSessionOwner, findSessionWorkspace } from "../db/sessions";
import { AppError } from "../errors";
import { listReviewRows } from "../db/plans/reviews";
import { sessionOfRequest } from "../db/permissions/requests";
import { listTeamLeads } from "../db/teams/team-leads";
import { mayChooseMode, modeRefusal } from "./rules/mode-rights";
import type { PermissionMode } from "../permission";

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

/** Throws 403, saying why, unless `actor` may choose `mode` for a session in `workspace` (lib/auth/rules/mode-rights). */
export function authoriseMode(actor: Actor, mode: PermissionMode, workspace: string): void {
  if (!mayChooseMode(actor, mode, workspace)) throw new AppError("forbidden", modeRefusal(mode, workspace));
}

/** authorise(), then who signs the act: every actor that may `act` somewhere signs (an agent token never does). */
export function signerFor(actor: Actor, act: Act, workspace: string): Signer {
  authorise(actor, act, workspace);
  const signer = signerOf(actor);
  if (!signer) throw new AppError("forbidden", `An agent token may not ${VERB[act]}.`);
  return signer;
}

/**
 * authorise() against a session's workspace, for a route that reads nothing else of the session before it answers
 * (its live stream): one read of one column, and a session that does not exist is the 404 here.
 */
export async function authoriseFoundSession(db: Db, actor: Actor, act: Act, sessionId: string): Promise<void> {
  const workspace = await findSessionWorkspace(db, sessionId);
  if (workspace === undefined) throw new AppError("session_not_found");
  authorise(actor, act, workspace);
}

/** authorise() against a session's workspace; a session that does not exist is left to the route's 404. */
export async function authoriseSession(db: Db, actor: Actor, act: Act, sessionId: string): Promise<void> {
  if (actor.kind === "operator") return;
  const workspace = await findSessionWorkspace(db, sessionId);
  if (workspace !== undefined) authorise(actor, act, workspace);
}

/**
 * An outside agent's session, by id: an agent token reaches only the session it created; anyone else needs `act`
 * in its workspace. A session that does not exist yet is judged by `workspace` (where a submit would create it).
 */
export async function authoriseAgentSession(
  db: Db,
  actor: Actor,
  act: "submit" | "read",
  sessionId: string,
  workspace?: string,
): Promise<void> {
  const owner = await findSessionOwner(db, sessionId);
  if (!owner) {
    if (workspace !== undefined) authorise(actor, act, workspace);
    return;
  }
  if (!mayOnAgentSession(actor, act, owner))
    throw new AppError(
      "forbidden",
      actor.kind === "agent-token"
        ? "That session belongs to another agent's token: an agent token reaches only its own session's reviews."
        : `You may not ${VERB[act]} in ${owner.workspace}: ask an owner for a role there.`,
    );
}

/** authoriseAgentSession() for the session of a review (a missing review is left to the route's 404). */
export async function authoriseAgentReview(db: Db, actor: Actor, act: "submit" | "read", reviewId: string) {
  const [row] = await listReviewRows(db, { id: reviewId });
  if (row) await authoriseAgentSession(db, actor, act, row.sessionId);
}

/** authoriseAgentSession() for the session of a permission ask. */
export async function authoriseAgentAsk(db: Db, actor: Actor, act: "submit" | "read", requestId: string) {
  const owner = await sessionOfRequest(db, requestId);
  if (owner) await authoriseAgentSession(db, actor, act, owner.sessionId);
}

/** A team's mailbox answer: only the lead's people (mayAnswerMailbox); a missing lead session is the route's 404. */
export async function authoriseMailboxAnswer(
  db: Db,
  actor: Actor,
  team: { id: string; leadSessionId: string },
): Promise<void> {
  const lead = await findSessionOwner(db, team.leadSessionId);
  if (!lead) return;
  const leads = (await listTeamLeads(db, team.id)).map((l) => l.userId);
  if (mayAnswerMailbox(actor, { ...lead, leads })) return;
  throw new AppError(
    "forbidden",
    may(actor, "decide", lead.workspace)
      ? "Only the team's lead people (who started its lead session, or whom an owner added) answer its mailbox."
      : `You may not decide plans in ${lead.workspace}: ask an owner for a role there.`,
  );
}

/** Adding a teammate to a team: only who may lead it (mayAddTeammate); a missing lead session is the route's 404. */
export async function authoriseTeammate(
  db: Db,
  actor: Actor,
  team: { id: string; leadSessionId: string },
): Promise<void> {
  const lead = await findSessionOwner(db, team.leadSessionId);
  if (!lead) return;
  const leads = (await listTeamLeads(db, team.id)).map((l) => l.userId);
  if (mayAddTeammate(actor, { ...lead, leads })) return;
  throw new AppError(
    "forbidden",
    may(actor, "start", lead.workspace)
      ? "Only the team's lead people (who started its lead session, or whom an owner added) or an owner add teammates to it."
      : `You may not start sessions in ${lead.workspace}: ask an owner for a role there.`,
  );
}
