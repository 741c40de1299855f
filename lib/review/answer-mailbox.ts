// A team lead's answer to a teammate's plan, from the mailbox: a person there, or the lead's model (send_message).
import "server-only";
import type { Actor, Signer } from "../auth/rules/rights";
import { mayChooseMode } from "../auth/rules/mode-rights";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { PermissionMode } from "../permission";
import { starterActor } from "../auth/starter-actor";
import { getTeam } from "../team/get-team";
import { listMail, type MailView } from "../team/mailbox";
import { commitDecision } from "./commit-decision";
import { fromMailReply, type PlanReply } from "./parse-decision";
import { listReviews } from "./read-review";
import type { Decider } from "./review-types";

/**
 * Who answers: a person in the mailbox, or the lead's model in the mode the lead is in now. The model's approval
 * may give the teammate no more than the lead itself may do (never from plan mode or a read-only agent, and never
 * in a team that requires a person).
 */
export type Answerer =
  | { by: "person"; actor: Actor; signer?: Signer }
  | { by: "lead-model"; mode: PermissionMode; readOnly: boolean };

/**
 * The lead's answer to a teammate's plan_approval_request. Only the requester's own lead may answer; a request
 * already answered (or replaced by a newer one) is stale. The decision, the response message and the request's
 * status are one transaction: of two racing answers the first wins. An approval that does not meet the review
 * policy yet is recorded, and the request stays open.
 */
export async function answerPlanRequest(
  db: Db,
  input: {
    teamId: string;
    responder: string;
    request: MailView | undefined;
    reply: PlanReply;
    answerer: Answerer;
    drive: (sessionId: string) => Promise<void>;
  },
): Promise<{ request: MailView; recorded: boolean }> {
  const { request, reply } = input;
  if (!request || request.teamId !== input.teamId || request.type !== "plan_approval_request")
    throw new AppError("not_found", "This team has no such plan approval request.");
  const team = await getTeam(db, input.teamId);
  if (input.responder !== team.leadSessionId || request.to !== team.leadSessionId)
    throw new AppError("forbidden", "Only the teammate's own team lead can answer its plan.");
  if (request.status === "answered")
    throw new AppError("already_decided", "That plan approval request was already answered.");
  const [review] = await listReviews(db, { id: request.requestId ?? "" });
  if (!review || review.status !== "pending")
    throw new AppError("already_decided", "That plan approval request is stale: the plan was already decided.");
  const { answerer } = input;
  // A model chooses for nobody: the lead's person and whoever added the teammate must both be able to choose
  // acceptEdits themselves for the model's approval to give it (lib/auth/rules/mode-rights).
  const mayChoose = async (sessionId: string) => {
    const starter = await starterActor(db, sessionId);
    return starter !== null && mayChooseMode(starter.actor, "acceptEdits", starter.workspace);
  };
  const decider: Decider =
    answerer.by === "person"
      ? { by: "person", via: "mailbox", actor: answerer.actor, ...(answerer.signer ? { signer: answerer.signer } : {}) }
      : {
          by: "lead-model",
          mode: answerer.mode,
          readOnly: answerer.readOnly,
          personRequired: team.personApproval,
          starterMay: (await mayChoose(team.leadSessionId)) && (await mayChoose(review.sessionId)),
        };
  const mail = {
    mailId: request.id,
    teamId: input.teamId,
    lead: input.responder,
    teammate: request.from,
    requestId: request.requestId,
  };
  const { status } = await commitDecision(db, review, { ...fromMailReply(reply), mail }, decider, {
    drive: input.drive,
  });
  const [after] = await listMail(db, { id: request.id });
  return { request: after ?? request, recorded: status === "recorded" };
}
