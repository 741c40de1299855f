// Pure: how a decision closes a plan review (approved into the one mode, sent back, set aside) as events and rows.
import type { NewEvent } from "../session/log/events";
import { credentialOf, signedBy } from "../auth/rules/rights";
import type { Approver, HeldRule } from "./rules/review-policy";
import type { PermissionMode } from "../permission";
import { approvalModeEvents } from "./approval-mode-events";
import { approvalTarget } from "./pick-approval-mode";
import type {
  DecisionInput,
  Effect,
  Judged,
  MailAnswer,
  NewPlanComment,
  Outcome,
  RefusalCode,
  ReviewFacts,
  Row,
} from "./review-types";
import { ABANDON_MESSAGE, approvalMessage, rejectionMessage, sendBackEditMessage } from "./write-agent-message";

/** A decision refused whole: nothing is written, and the message says why. */
export type Refused = Extract<Outcome, { refused: unknown }>;
export const refuse = (code: RefusalCode, message: string): Refused => ({ refused: { code, message } });

/** What every closing works from: the facts, the decision, who decides, and the review it carries. */
export type Ctx = { facts: ReviewFacts; body: DecisionInput; d: Judged; p: Prepared };

/** The review a decision carries, checked against the version: quoted comments, answered threads, the edit. */
export type Prepared = {
  comments: NewPlanComment[];
  replies: NewPlanComment[];
  resolved: string[];
  reviewText: string;
  edited: boolean;
  finalPlan: string;
};

export const decidedByOf = (d: Judged) =>
  d.by === "lead-model" ? "lead-model" : d.via === "mailbox" ? "lead" : "user";
export const signerOfDecider = (d: Judged) => (d.by === "person" ? d.signer : undefined);
/** Who wrote a comment or resolved a thread: the signed-in person, as decisions are signed. */
const authorOf = (d: Judged) => {
  const s = signerOfDecider(d);
  return s ? signedBy(s) : decidedByOf(d);
};

/** The review's own parts as rows: comments and replies, and the threads it resolved. */
export function reviewRows(facts: ReviewFacts, d: Judged, p: Prepared): Row[] {
  const { planId, version } = facts.version;
  const author = authorOf(d);
  return [
    ...(p.comments.length + p.replies.length
      ? [{ kind: "comments" as const, planId, version, comments: [...p.comments, ...p.replies], author }]
      : []),
    ...(p.resolved.length ? [{ kind: "resolve" as const, planId, ids: p.resolved, author }] : []),
  ];
}

/** An edit under a policy: the review closes as sent back, and the agent gets the changed plan to submit again. */
export function sendBack(facts: ReviewFacts, body: DecisionInput, d: Judged, p: Prepared): Outcome {
  const { version } = facts;
  const written = !version.outside;
  const notes = [body.feedback, p.reviewText].filter(Boolean).join("\n\n");
  const text = sendBackEditMessage(p.finalPlan, version.filePath, notes, written);
  const feedback = body.feedback ?? "Changed by the reviewer: sent back as a new version.";
  return closing({ facts, body: { ...body, decision: "reject", feedback }, d, p }, [], null, {
    result: { ok: false, text },
    effects: written
      ? [{ kind: "write-plan", workspace: version.workspace, file: version.filePath, content: p.finalPlan }]
      : [],
  });
}

/** Closes the review with the decision: approved (into the one mode), sent back, or set aside. */
export function close(c: Ctx, held: HeldRule[], approver: Approver | null): Outcome {
  const { facts, body, d, p } = c;
  const { version } = facts;
  if (body.decision === "abandon") return closing(c, held, null, { result: { ok: false, text: ABANDON_MESSAGE } });
  if (body.decision === "reject")
    return closing(c, held, null, {
      result: { ok: false, text: rejectionMessage(body.feedback, p.reviewText) },
    });
  const target = approvalTarget({
    prePlanMode: facts.state.prePlanMode,
    gates: facts.gates,
    approver:
      d.by === "lead-model"
        ? { by: "lead-model", mode: d.mode, starterMay: d.starterMay }
        : { by: facts.review.lead ? "lead-person" : "person" },
    receives: version.receives,
    requested: body.mode,
  });
  const modes = modeEvents(facts, target.mode, target.fallback, version.outside);
  const notes = [body.feedback, p.reviewText].filter(Boolean).join("\n\n") || undefined;
  const text = approvalMessage(p.finalPlan, version.filePath, p.edited, modes.mode, decidedByOf(d), notes);
  const effects: Effect[] =
    p.edited && !version.outside
      ? [{ kind: "write-plan", workspace: version.workspace, file: version.filePath, content: p.finalPlan }]
      : [];
  return closing(c, held, approver, { result: { ok: true, text }, before: modes.events, effects });
}

/**
 * The mode events of an approval: leaving plan mode for `target` (or default, when the gate closed meanwhile),
 * queued for the step boundary while our agent's turn is open (approval-mode-events.ts), at once otherwise.
 */
export function modeEvents(
  facts: Pick<ReviewFacts, "state" | "gates">,
  target: PermissionMode,
  fallback = false,
  outside = false,
): { events: NewEvent[]; mode: PermissionMode } {
  return approvalModeEvents(facts.state, facts.gates, target, outside, fallback);
}

/** The closing events and rows every decision shares: review.answered, the tool's result, the turn; the close row. */
function closing(
  c: Ctx,
  held: HeldRule[],
  approver: Approver | null,
  how: { result: { ok: boolean; text: string }; before?: NewEvent[]; effects?: Effect[] },
): Outcome {
  const { facts, body, d } = c;
  const { review, version, state } = facts;
  const signer = signerOfDecider(d);
  const callId = version.toolCallId;
  if (!callId) return refuse("conflict", "That review is not tied to a tool call.");
  const by = signer
    ? `${signedBy(signer)}${body.override ? ` (overriding the review policy: ${body.override})` : ""}`
    : undefined;
  const events: NewEvent[] = [
    {
      type: "review.answered",
      payload: {
        reviewId: review.id,
        decision: body.decision,
        ...(body.feedback ? { feedback: body.feedback } : {}),
        // Who each held pattern belongs to goes with it: only they release a write under it (issue 41).
        ...(held.length ? { held: [...new Set(held.map((r) => r.pattern))], heldFor: held } : {}),
        ...(by ? { by } : {}),
      },
    },
    ...(how.before ?? []),
    how.result.ok
      ? {
          type: "tool.result",
          payload: { callId, tool: "exit_plan_mode", ok: true, output: how.result.text, metadata: { approved: true } },
        }
      : { type: "tool.result", payload: { callId, tool: "exit_plan_mode", ok: false, error: how.result.text } },
  ];
  const abandon = body.decision === "abandon";
  if (abandon && state.openTurnId)
    events.push({ type: "turn.ended", payload: { turnId: state.openTurnId, reason: "abandoned" } });
  // The turn may have been aborted while the review waited: the decision then opens a turn to go on with.
  if (!abandon && !state.openTurnId)
    events.push({ type: "turn.started", payload: { turnId: facts.turnId, resumed: true } });
  const rows = closingRows(c, approver);
  const effects: Effect[] = [...(how.effects ?? []), ...(abandon ? [] : [{ kind: "baseline-then-drive" as const }])];
  return { status: "closed", events, rows, effects, held };
}

/** The rows every closing writes: the verdict, the approval it carries, the review's parts, and what goes with them. */
function closingRows(c: Ctx, approver: Approver | null): Row[] {
  const { facts, body, d, p } = c;
  const { version } = facts;
  const signer = signerOfDecider(d);
  const approve = body.decision === "approve";
  const status = ({ approve: "approved", reject: "rejected", abandon: "abandoned" } as const)[body.decision];
  return [
    {
      kind: "close",
      status,
      decision: body.decision,
      decidedBy: decidedByOf(d),
      feedback: body.feedback ?? null,
      ...(signer ? { signer } : {}),
      version: {
        content: approve ? p.finalPlan : version.content,
        editedByUser: approve && p.edited,
        outside: approve && version.outside,
      },
    },
    ...(approver && signer ? [{ kind: "approval" as const, approver, credential: credentialOf(signer) }] : []),
    ...reviewRows(facts, d, p),
    ...(approve && p.edited ? [{ kind: "index-plan" as const, body: p.finalPlan }] : []),
    ...(body.override && signer
      ? [
          {
            kind: "audit" as const,
            signer,
            what: "review.overridden",
            workspace: version.workspace,
            detail: { reason: body.override },
          },
        ]
      : []),
    ...(approve && !version.outside
      ? [{ kind: "hold-baseline" as const, versionId: version.id, workspace: version.workspace }]
      : []),
    ...(body.mail ? [mailRow(body.mail, approve, body.feedback)] : []),
  ];
}

/** A lead's answer from the mailbox closes its request there, with the response the teammate's mailbox keeps. */
function mailRow(mail: MailAnswer, approve: boolean, feedback: string | undefined): Row {
  const words = feedback?.trim();
  return { kind: "answer-mail", mail, approve, ...(words ? { feedback: words } : {}) };
}
