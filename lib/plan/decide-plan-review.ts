import { type Signer, signedBy } from "../core/people";
import { z } from "zod";
import type { Executor } from "../db/client";
import type { Db } from "../db/client";
import { closeReview } from "../db/plans/close-review";
import { insertPlanComments, resolvePlanThreads } from "../db/plans/comments";
import { findReviewedVersion } from "../db/plans/reviews";
import { indexDocs } from "../db/session-log/search-index";
import { AppError } from "../errors";
import { newId } from "../id";
import { gate, type PermissionMode } from "../permission";
import { appendEvents } from "../session/append-events";
import { BASELINE_NONE, holdForBaseline, takeOwedBaseline, type HeldBaseline } from "../verify/take-baseline";
import { writePlanFile } from "./plan-file";
import { formatComments, formatThreads, quoteLines, reviewInput } from "./plan-comments";
import { suggested, threadsAnswered } from "./review-input";
import { checkAgentReceives } from "./check-agent-receives";
import type { NewEvent } from "../core/events";
import type { SessionState } from "../core/fold";
import { readGates } from "../session/mode-gates";
import { listReviews, type ReviewView } from "./list-reviews";
import { isExternalModel } from "../session/external-agents";
import { addApproval } from "../db/plans/approvals";
import type { ReviewedVersion } from "../db/plans/reviews";
import { credentialOf } from "../core/people";
import type { Approver, HeldRule } from "../core/review-policy";
import { needsOf, plainPolicy, weighApproval } from "./weigh-approval";
import { approvalModeEvents } from "./approval-mode-events";

export const planDecisionBody = z
  .object({
    decision: z.enum(["approve", "reject", "abandon"]),
    feedback: z.string().max(20_000).optional(),
    mode: z.enum(["default", "acceptEdits", "auto"]).optional(),
    plan: z.string().min(1).max(200_000).optional(),
    /** The review with the decision: with "reject" it goes back with the feedback, with "approve" as notes. */
    ...reviewInput,
  })
  .strict()
  .refine((b) => b.decision !== "abandon" || (!b.comments?.length && !b.threads?.length), {
    message: "comments and threads go with approve or reject, not abandon",
    path: ["comments"],
  })
  .refine((b) => !b.applySuggestions || (b.decision === "approve" && b.plan === undefined), {
    message: "applySuggestions goes with approve, and not with an edited plan",
    path: ["applySuggestions"],
  });
export type PlanDecision = z.infer<typeof planDecisionBody>;

/**
 * Who decides, as the route or tool that took the decision knows it: a person (on the desk, or in a team's
 * mailbox), or a team lead's model with the rights it has now. Nothing in a request body can say "person":
 * only a route that serves people passes it (sign-in will say which person).
 */
export type Decider =
  | { by: "person"; via: "desk" | "mailbox"; signer?: Signer }
  | { by: "lead-model"; mode: PermissionMode; readOnly: boolean; personRequired: boolean };

const decidedByOf = (d: Decider) => (d.by === "lead-model" ? "lead-model" : d.via === "mailbox" ? "lead" : "user");

const APPROVERS: Record<string, string> = {
  "lead-model": "Your team lead's model has approved your plan (no person reviewed it).",
  lead: "A person has approved your plan in the team mailbox.",
};

/**
 * What the model reads when the plan is approved (headed "edited by user" only when it really was), who
 * approved it, and the reviewer's notes when there are any.
 */
export function approvalMessage(
  plan: string,
  file: string,
  edited: boolean,
  mode: PermissionMode,
  decidedBy = "user",
  notes?: string,
): string {
  return [
    `${APPROVERS[decidedBy] ?? "User has approved your plan."} You can now start executing it (permission mode: ${mode}).`,
    ...(notes ? ["", "Notes from the reviewer, to follow while you carry out the plan:", notes.trim()] : []),
    `The plan is saved at ${file}; follow it, and keep it as the reference for what was agreed.`,
    "",
    edited ? "## Approved Plan (edited by user)" : "## Approved Plan",
    "",
    plan.trim(),
  ].join("\n");
}

const normalize = (s: string) => s.replace(/\r\n/g, "\n").trim();

/**
 * The one decision on a plan review. Only "approve" approves. The review row moves out of pending once (so of
 * concurrent decisions exactly one wins), with the plan version, the tool's result and the mode change (queued for
 * the step boundary while the turn is open: approval-mode-events.ts) in the same transaction; the plan file and
 * resuming the turn come after the commit.
 */
export async function decidePlanReview(
  db: Db,
  review: ReviewView,
  body: PlanDecision,
  opts: {
    /** Runs the session's turn: the caller's (a route's kick, a tool's runtime); plan/ never calls the driver. */
    drive: (sessionId: string) => Promise<void>;
    decider: Decider;
    /** More rows written in the decision's transaction (a team lead's mailbox reply). */
    alsoWrite?: (run: Executor) => Promise<void>;
    /** An owner approves a plan whose review policy cannot be met (the caller checked manage), with this reason. */
    override?: string;
    /**
     * A teammate's plan approved from the session page under a review policy: the approval counts toward the
     * policy but never releases it (that takes the lead's answer from the mailbox as well).
     */
    recordOnly?: boolean;
  },
): Promise<ReviewView> {
  const { drive, decider, alsoWrite, override, recordOnly = false } = opts;
  const decidedBy = decidedByOf(decider);
  // One read for the version, its tool call and the workspace: with the snapshot out of the request, the
  // decision's latency is its reads and its commit.
  const version = await findReviewedVersion(db, review.id);
  if (!version) throw new AppError("review_not_found", "That review has no plan version.");
  // The one gate says whether this decider may make this decision on this plan (an outside agent's: only a person).
  const allowed = gate({
    about: "plan",
    actor: decider.by === "person" ? "person" : "model",
    decision: body.decision,
    planOf: isExternalModel(version.model) ? "outside" : "agent",
    ...(decider.by === "lead-model"
      ? { personRequired: decider.personRequired, model: { mode: decider.mode, readOnly: decider.readOnly } }
      : {}),
  });
  if (allowed.action !== "allow")
    throw new AppError(
      "person_required",
      `${decider.by === "lead-model" ? "The lead's model may not answer this plan" : "This plan cannot be answered here"}: ${allowed.reason}.`,
    );
  const comments = (body.comments ?? []).map((c, i) => ({ ...c, quote: quoteLines(version.content, c, i) }));
  // Threads are a person's conversation: a model never replies to or resolves one.
  if (decider.by === "lead-model" && body.threads?.length)
    throw new AppError("person_required", "Only a person replies to or resolves a thread on a plan.");
  const answered = await threadsAnswered(db, version, body.threads ?? []);
  const reviewText = [formatComments(comments), formatThreads(answered)].filter(Boolean).join("\n\n");
  if (body.applySuggestions && body.plan !== undefined)
    throw new AppError("bad_request", "applySuggestions: apply the suggestions or send an edited plan, not both");
  const proposed = body.applySuggestions ? suggested(version.content, comments) : body.plan;
  const edited =
    body.decision === "approve" && proposed !== undefined && normalize(proposed) !== normalize(version.content);
  const finalPlan = edited && proposed !== undefined ? proposed : version.content;
  checkAgentReceives(version, body, edited);
  const releasing =
    body.decision === "approve" && override === undefined
      ? await weighUnderPolicy(db, review, version, decider, edited, recordOnly)
      : null;
  if (releasing === "pending") {
    const [after] = await listReviews(db, { id: review.id });
    return after ?? review;
  }
  const gates = await readGates(db);
  const callId = version.toolCallId;
  if (!callId) throw new AppError("conflict", "That review is not tied to a tool call.");
  const turnId = newId("trn");
  let restored: PermissionMode = "default";

  const events = (s: SessionState): NewEvent[] => {
    const out: NewEvent[] = [
      {
        type: "review.answered",
        payload: {
          reviewId: review.id,
          decision: body.decision,
          ...(body.feedback ? { feedback: body.feedback } : {}),
          // Who each held pattern belongs to goes with it: only they release a write under it (issue 41).
          ...(releasing?.held.length
            ? { held: [...new Set(releasing.held.map((r) => r.pattern))], heldFor: releasing.held }
            : {}),
          ...(decider.by === "person" && decider.signer
            ? { by: `${signedBy(decider.signer)}${override ? ` (overriding the review policy: ${override})` : ""}` }
            : {}),
        },
      },
    ];
    const result = (ok: boolean, text: string): NewEvent =>
      ok
        ? {
            type: "tool.result",
            payload: { callId, tool: "exit_plan_mode", ok: true, output: text, metadata: { approved: true } },
          }
        : { type: "tool.result", payload: { callId, tool: "exit_plan_mode", ok: false, error: text } };
    if (body.decision === "approve") {
      const change = approvalModeEvents(s, gates, body.mode, isExternalModel(version.model));
      restored = change.mode;
      out.push(...change.events);
      const notes = [body.feedback, reviewText].filter(Boolean).join("\n\n") || undefined;
      out.push(result(true, approvalMessage(finalPlan, version.filePath, edited, restored, decidedBy, notes)));
    } else if (body.decision === "reject") {
      out.push(
        result(
          false,
          `The user did not approve the plan and wants you to keep planning.${body.feedback ? ` Their feedback:\n${body.feedback}` : ""}${reviewText ? `\n\n${reviewText}` : ""}\nRevise the plan file, then call exit_plan_mode again.`,
        ),
      );
    } else {
      out.push(
        result(
          false,
          "The user closed the plan review to talk instead. Stay in plan mode, stop here and wait for their message.",
        ),
      );
      if (s.openTurnId) out.push({ type: "turn.ended", payload: { turnId: s.openTurnId, reason: "abandoned" } });
      return out;
    }
    // The turn may have been aborted while the review waited: the decision then opens a turn to go on with.
    if (!s.openTurnId) out.push({ type: "turn.started", payload: { turnId, resumed: true } });
    return out;
  };

  const status = ({ approve: "approved", reject: "rejected", abandon: "abandoned" } as const)[body.decision];
  // The workspace as approved, which verification diffs against, is snapshotted after the response (a large
  // repository takes 100+ ms): the lease taken with the decision keeps the agent from running until it is written.
  const { workspace } = version;
  // An outside agent's folder is its own (nothing of it is verified here): it is not read, not even to list it.
  const outside = isExternalModel(version.model);
  const snapshot = body.decision === "approve" && !outside;
  const baseline = body.decision === "approve" && outside ? BASELINE_NONE : null;
  let held: HeldBaseline | undefined;
  await appendEvents(db, review.sessionId, events, {
    also: async (run) => {
      held = undefined; // a transaction retried after a conflict claims the lease afresh
      const at = new Date();
      const closed = await closeReview(run, review.id, {
        status,
        decision: body.decision,
        decidedBy,
        decidedAt: at,
        feedback: body.feedback ?? null,
        ...(decider.by === "person" && decider.signer ? { signer: decider.signer } : {}),
        version: { content: finalPlan, editedByUser: edited, baselineTree: baseline },
      });
      if (!closed) throw new AppError("already_decided");
      if (releasing) await addApproval(run, review.id, releasing.approver, releasing.credential);
      const replies = answered.flatMap((t) => (t.reply ? [{ ...t.root, body: t.reply, parentId: t.id }] : []));
      // Comments and threads are signed by the person who wrote them, as decisions are.
      const author = signerName(decider) ?? decidedBy;
      await insertPlanComments(run, version.planId, version.version, [...comments, ...replies], author, at);
      const resolved = answered.filter((t) => t.resolve).map((t) => t.id);
      await resolvePlanThreads(run, version.planId, resolved, author, at);
      if (edited) await indexDocs(run, review.sessionId, [{ kind: "plan", body: finalPlan }]);
      await alsoWrite?.(run);
      const token = snapshot ? await holdForBaseline(run, review.sessionId) : null;
      if (token) held = { token, versionId: version.id, workspace };
    },
  });
  // The edited text is the plan now; a link planted at the path is replaced, never written through. An outside
  // agent keeps its plan file itself (outside the workspace): it gets the edited text from its hook.
  if (edited && !isExternalModel(version.model)) {
    try {
      writePlanFile(workspace, version.filePath, finalPlan);
    } catch (error) {
      console.error(`plangate: the edited plan of ${review.sessionId} was not written to its file`, error);
    }
  }
  if (body.decision !== "abandon") {
    // The approval's baseline first (the lease it holds keeps every drive out until it is written), then the turn.
    void takeOwedBaseline(db, review.sessionId, held)
      .catch((error: unknown) => console.error(`plangate: the approval baseline of ${review.sessionId} failed`, error))
      .then(() => drive(review.sessionId))
      .catch((error: unknown) => console.error(`plangate: drive ${review.sessionId} failed`, error));
  }
  const [after] = await listReviews(db, { id: review.id });
  return after ?? review;
}

/**
 * An approval under the workspace's review policy: null when the policy is the plain one (one approval by anyone
 * who may decide: nothing is weighed), "pending" when this approval was recorded and the policy is not met yet,
 * else the approval that meets it (recorded with the decision). Only people (and the operator, for a plain
 * count) approve under a policy; an edit while approvals are weighed would be a new version.
 */
async function weighUnderPolicy(
  db: Db,
  review: ReviewView,
  version: ReviewedVersion,
  decider: Decider,
  edited: boolean,
  recordOnly: boolean,
): Promise<{ approver: Approver; credential: string; held: HeldRule[] } | "pending" | null> {
  const needs = await needsOf(db, version);
  if (plainPolicy(needs)) {
    if (recordOnly)
      throw new AppError("forbidden", "This is a teammate's plan: its team lead answers it, from the team mailbox.");
    return null;
  }
  if (decider.by !== "person" || !decider.signer)
    throw new AppError("person_required", "This workspace's review policy needs people to approve its plans.");
  if (edited)
    throw new AppError(
      "conflict",
      "Under this workspace's review policy an edit is a new version: approve the plan as it stands, or send it back with the change.",
    );
  const weighed = await weighApproval(db, review, decider.signer, needs, !recordOnly);
  return weighed.met
    ? { approver: weighed.approver, credential: credentialOf(decider.signer), held: weighed.held }
    : "pending";
}

/** The signed-in person's name, for what they did to a thread (resolved by whom). */
const signerName = (d: Decider) => (d.by === "person" && d.signer ? signedBy(d.signer) : undefined);
