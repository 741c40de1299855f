import type { Signer } from "../core/people";
import { z } from "zod";
import type { Db } from "../db/client";
import { markMailAnswered } from "../db/teams/mailbox";
import type { PermissionMode } from "../permission";
import type { CommentInput, ThreadInput } from "../plan/plan-comments";
import { AppError } from "../errors";
import { listReviews } from "../plan/list-reviews";
import { decidePlanReview, type Decider } from "../plan/decide-plan-review";
import { getTeam } from "./get-team";
import { starterActor } from "../auth/starter-actor";
import { mayChooseMode } from "../core/mode-rights";
import { insertMail, listMail, type MailView } from "./mailbox";

export const replyBody = z.object({ approve: z.boolean(), feedback: z.string().max(20_000).optional() }).strict();
/** A person in the mailbox may also pick the teammate's mode, edit the plan, and comment on its lines. */
export type PlanReply = z.infer<typeof replyBody> & {
  mode?: "acceptEdits" | "default";
  plan?: string;
  comments?: CommentInput[];
  threads?: ThreadInput[];
  applySuggestions?: boolean;
};

/**
 * Who answers: a person in the mailbox, or the lead's model (send_message) in the mode the lead is in now.
 * The model's approval may give the teammate no more than the lead itself may do (never from plan mode or a
 * read-only agent, and never in a team that requires a person).
 */
export type Answerer =
  | { by: "person"; signer?: Signer }
  | { by: "lead-model"; mode: PermissionMode; readOnly: boolean };

/**
 * The mode a teammate gets with the approval: edits accepted, or asked when the approving model's own edits ask. A
 * model chooses for nobody: its approval gives acceptEdits only when the lead session's starter and the teammate's
 * (who added it) may both choose it (`starterMay`, lib/core/mode-rights), else default.
 */
export function approvedMode(
  answerer: Answerer,
  chosen: "acceptEdits" | "default" | undefined,
  starterMay: boolean,
): "acceptEdits" | "default" {
  if (answerer.by === "person") return chosen ?? "acceptEdits";
  return answerer.mode === "default" || !starterMay ? "default" : "acceptEdits";
}

/**
 * The lead's answer to a teammate's plan_approval_request. Only the requester's own lead may answer; a
 * request already answered (or replaced by a newer one) is stale. The decision, the response message and
 * the request's status are one transaction: of two racing answers the first wins, whatever it was.
 */
export async function answerPlanRequest(
  db: Db,
  input: {
    teamId: string;
    responder: string;
    request: MailView | undefined;
    reply: PlanReply;
    answerer?: Answerer;
    drive: (sessionId: string) => Promise<void>;
  },
): Promise<{ request: MailView }> {
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
  const feedback = reply.feedback?.trim() || undefined;
  const answerer = input.answerer ?? { by: "person" };
  // Whether this answerer may decide is the gate's (in decidePlanReview): an outside agent's plan only by a person.
  const decider: Decider =
    answerer.by === "person"
      ? { by: "person", via: "mailbox", ...(answerer.signer ? { signer: answerer.signer } : {}) }
      : { by: "lead-model", mode: answerer.mode, readOnly: answerer.readOnly, personRequired: team.personApproval };
  // An approved teammate carries out its plan with edits accepted (its shell commands still ask), or with edits
  // asked when it was the lead's model, in default mode (or for a starter who may not choose more), that approved;
  // a person may choose.
  // The lead's person, and whoever added the teammate (issue 41: one who may lead the team, but maybe a member):
  // a model chooses for nobody, so both must be able to choose acceptEdits themselves.
  const mayChoose = async (sessionId: string) => {
    const starter = await starterActor(db, sessionId);
    return starter !== null && mayChooseMode(starter.actor, "acceptEdits", starter.workspace);
  };
  const starterMay =
    answerer.by === "lead-model" && (await mayChoose(team.leadSessionId)) && (await mayChoose(review.sessionId));
  const mode = approvedMode(answerer, reply.mode, starterMay);
  const extra = {
    ...(reply.comments?.length ? { comments: reply.comments } : {}),
    ...(reply.threads?.length ? { threads: reply.threads } : {}),
  };
  const decision = reply.approve
    ? ({
        decision: "approve",
        mode,
        ...(reply.plan !== undefined ? { plan: reply.plan } : {}),
        ...(reply.applySuggestions ? { applySuggestions: true } : {}),
        // Words typed before approving go with the approval, as notes: never dropped.
        ...(feedback ? { feedback } : {}),
        ...extra,
      } as const)
    : ({ decision: "reject", ...(feedback ? { feedback } : {}), ...extra } as const);
  await decidePlanReview(db, review, decision, {
    drive: input.drive,
    decider,
    alsoWrite: async (run) => {
      if (!(await markMailAnswered(run, request.id, new Date())))
        throw new AppError("already_decided", "That plan approval request was already answered.");
      // The teammate reads the answer as its exit tool's result; the stored response keeps the mailbox complete.
      await insertMail(run, {
        teamId: input.teamId,
        from: input.responder,
        to: request.from,
        type: "plan_approval_response",
        requestId: request.requestId,
        payload: { approve: reply.approve, ...(feedback ? { feedback } : {}) },
        status: "read",
      });
    },
  });
  const [after] = await listMail(db, { id: request.id });
  return { request: after ?? request };
}
