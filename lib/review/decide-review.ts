// The one decision on a plan review, pure: (facts, decision, decider) → the events, rows and after-commit effects, or a refusal.
import type { NewEvent } from "../core/events";
import { credentialOf, signedBy } from "../core/people";
import { type Approver, type HeldRule, heldRules } from "../core/review-policy";
import { gate, type PermissionMode } from "../permission";
import { approvalModeEvents } from "./approval-mode-events";
import { quoteLines, suggested } from "./anchor-threads";
import { type Standing, standingOf } from "./check-decider";
import type { PlanDecision } from "./parse-decision";
import { approvalTarget } from "./pick-approval-mode";
import { answeredElsewhere } from "./close-elsewhere";
import type {
  Decider,
  Effect,
  MailAnswer,
  NewPlanComment,
  Outcome,
  RefusalCode,
  ReviewFacts,
  Row,
  TerminalAnswer,
} from "./review-types";
import { verdictOf } from "./weigh-policy";
import {
  ABANDON_MESSAGE,
  approvalMessage,
  formatComments,
  formatThreads,
  rejectionMessage,
  sendBackEditMessage,
  unreceived,
} from "./write-agent-message";

/**
 * A decision as decide() takes it: the body; an owner's override reason (the caller checked manage); a setting
 * aside as the session leaves plan mode (the caller checked the right to leave it); the mailbox request it answers.
 */
export type DecisionInput = PlanDecision & { override?: string; aside?: true; mail?: MailAnswer };

/** Who decides, when it is someone the gate and the policy weigh (not an outside agent's own terminal). */
type Judged = Exclude<Decider, TerminalAnswer>;

type Refused = Extract<Outcome, { refused: unknown }>;
const refuse = (code: RefusalCode, message: string): Refused => ({ refused: { code, message } });

/** What every closing works from: the facts, the decision, who decides, and the review it carries. */
type Ctx = { facts: ReviewFacts; body: DecisionInput; d: Judged; p: Prepared };

/** The review a decision carries, checked against the version: quoted comments, answered threads, the edit. */
type Prepared = {
  comments: NewPlanComment[];
  replies: NewPlanComment[];
  resolved: string[];
  reviewText: string;
  edited: boolean;
  finalPlan: string;
};

/**
 * The one decision. A refusal leaves everything as it was; otherwise every part of the review (the decision, its
 * comments, suggestions, replies, resolutions and note) is in the rows and events the writer commits together.
 * Only "approve" approves; under a review policy an approval that does not meet it yet is recorded (the review
 * stays pending), and an edit is sent back as a new version the policy weighs again.
 */
export function decide(facts: ReviewFacts, body: DecisionInput, decider: Decider): Outcome {
  if (facts.review.status !== "pending")
    return refuse("already_decided", `That review was already decided: ${facts.review.status}.`);
  if (decider.by === "terminal") return answeredElsewhere(facts, decider.answer);
  const standing = checkWho(facts, body, decider);
  if (standing !== null && "refused" in standing) return standing;
  const prepared = prepareReview(facts, body, decider);
  if ("refused" in prepared) return prepared;
  if (body.decision !== "approve" || body.override !== undefined || facts.needs.plain)
    return close({ facts, body, d: decider, p: prepared }, [], body.decision === "approve" ? facts.me : null);
  if (prepared.edited) {
    if (standing?.sendBack === false) return refuse("forbidden", TEAMMATE);
    return sendBack(facts, body, decider, prepared);
  }
  return weighApproval(facts, body, decider, prepared, standing);
}

const TEAMMATE = "This is a teammate's plan: only its team lead answers it, from the team mailbox.";

/** The gate, then the person's standing (the same function the desk and the card use). Null: a model, allowed. */
function checkWho(facts: ReviewFacts, body: DecisionInput, d: Judged): Standing | null | Refused {
  const allowed = gate({
    about: "plan",
    actor: d.by === "person" ? "person" : "model",
    decision: body.decision,
    planOf: facts.version.outside ? "outside" : "agent",
    ...(d.by === "lead-model"
      ? { personRequired: d.personRequired, model: { mode: d.mode, readOnly: d.readOnly } }
      : {}),
  });
  if (allowed.action !== "allow")
    return refuse(
      "person_required",
      `${d.by === "lead-model" ? "The lead's model may not answer this plan" : "This plan cannot be answered here"}: ${allowed.reason}.`,
    );
  if (d.by === "lead-model") {
    if (body.threads?.length)
      return refuse("person_required", "Only a person replies to or resolves a thread on a plan.");
    if (body.decision === "approve" && !facts.needs.plain)
      return refuse("person_required", "This workspace's review policy needs people to approve its plans.");
    return null;
  }
  const standingFacts = {
    workspace: facts.version.workspace,
    lead: facts.review.lead,
    leadPeople: facts.leadPeople,
    needs: facts.needs,
  };
  // A teammate's plan is its lead's to set aside too (leaving plan mode does): the lead's people, or an owner.
  if (
    body.aside &&
    facts.review.lead &&
    !standingOf(standingFacts, { actor: d.actor, me: facts.me }, "mailbox").sendBack
  )
    return refuse(
      "forbidden",
      "This is a teammate's plan: leaving plan mode would set it aside, which only its team lead's people (or an owner) may do.",
    );
  if (body.override !== undefined || body.aside) return null;
  const standing = standingOf(standingFacts, { actor: d.actor, me: facts.me }, d.via);
  if (body.decision === "approve" && !standing.counts) return refuse(standing.code ?? "forbidden", standing.reason);
  if (body.decision !== "approve" && !standing.sendBack)
    return refuse("forbidden", standing.via === "record-only" || facts.review.lead ? TEAMMATE : standing.reason);
  return standing;
}

const normalize = (s: string) => s.replace(/\r\n/g, "\n").trim();

function prepareReview(facts: ReviewFacts, body: DecisionInput, d: Judged): Prepared | Refused {
  const { content } = facts.version;
  const comments: NewPlanComment[] = [];
  for (const [i, c] of (body.comments ?? []).entries()) {
    const quote = quoteLines(content, c);
    if (quote === null)
      return refuse("bad_request", `comments.${i}: the plan has ${content.split("\n").length} lines, not ${c.lineEnd}`);
    comments.push({ ...c, quote });
  }
  const answered: { quote: string; reply?: string; resolve?: true; id: string }[] = [];
  const replies: NewPlanComment[] = [];
  for (const [i, t] of (body.threads ?? []).entries()) {
    const root = facts.roots.get(t.id);
    if (!root || root.parentId !== null || root.version >= facts.version.version)
      return refuse("bad_request", `threads.${i}: this plan has no earlier thread ${t.id}`);
    answered.push({ ...t, quote: root.quote });
    if (t.reply)
      replies.push({
        lineStart: root.lineStart,
        lineEnd: root.lineEnd,
        quote: root.quote,
        body: t.reply,
        parentId: t.id,
      });
  }
  const reviewText = [formatComments(comments), formatThreads(answered)].filter(Boolean).join("\n\n");
  let proposed = body.plan;
  if (body.applySuggestions) {
    const out = suggested(content, comments);
    if ("problem" in out) return refuse("bad_request", out.problem);
    proposed = out.plan;
  }
  const edited = body.decision === "approve" && proposed !== undefined && normalize(proposed) !== normalize(content);
  const finalPlan = edited && proposed !== undefined ? proposed : content;
  const problem = d.by === "person" ? unreceived(facts.version.receives, body, edited) : null;
  if (problem) return refuse("bad_request", problem);
  const resolved = answered.filter((t) => t.resolve).map((t) => t.id);
  return { comments, replies, resolved, reviewText, edited, finalPlan };
}

const decidedByOf = (d: Judged) => (d.by === "lead-model" ? "lead-model" : d.via === "mailbox" ? "lead" : "user");
const signerOfDecider = (d: Judged) => (d.by === "person" ? d.signer : undefined);
/** Who wrote a comment or resolved a thread: the signed-in person, as decisions are signed. */
const authorOf = (d: Judged) => {
  const s = signerOfDecider(d);
  return s ? signedBy(s) : decidedByOf(d);
};

/** The review's own parts as rows: comments and replies, and the threads it resolved. */
function reviewRows(facts: ReviewFacts, d: Judged, p: Prepared): Row[] {
  const { planId, version } = facts.version;
  const author = authorOf(d);
  return [
    ...(p.comments.length + p.replies.length
      ? [{ kind: "comments" as const, planId, version, comments: [...p.comments, ...p.replies], author }]
      : []),
    ...(p.resolved.length ? [{ kind: "resolve" as const, planId, ids: p.resolved, author }] : []),
  ];
}

/** An approval under a policy: it releases the plan when it meets the policy (never from record-only), else is recorded. */
function weighApproval(
  facts: ReviewFacts,
  body: DecisionInput,
  d: Judged,
  p: Prepared,
  standing: Standing | null,
): Outcome {
  const me = facts.me;
  const signer = signerOfDecider(d);
  if (!me || !signer)
    return refuse("person_required", "This workspace's review policy needs people to approve its plans.");
  const verdict = verdictOf(facts.needs, standing?.approvedAt ? [] : [me]);
  if (verdict.met && standing?.via !== "record-only") {
    const held = heldRules({ ...facts.needs, approvals: [...facts.needs.approvals, me] });
    return close({ facts, body, d, p }, held, me);
  }
  const counts = { comments: p.comments.length, replies: p.replies.length, resolved: p.resolved.length };
  const events: NewEvent[] = [
    {
      type: "review.approved",
      payload: {
        reviewId: facts.review.id,
        by: signedBy(signer),
        summary: verdict.summary,
        ...(Object.values(counts).some((n) => n > 0) ? { review: counts } : {}),
        ...(body.feedback?.trim() ? { note: body.feedback.trim() } : {}),
      },
    },
  ];
  const rows: Row[] = [
    { kind: "approval", approver: me, credential: credentialOf(signer) },
    ...reviewRows(facts, d, p),
    {
      kind: "audit",
      signer,
      what: "review.approval",
      workspace: facts.version.workspace,
      detail: { summary: verdict.summary, ...(body.feedback?.trim() ? { note: body.feedback.trim() } : {}) },
    },
  ];
  return { status: "recorded", events, rows, effects: [], held: [] };
}

/** An edit under a policy: the review closes as sent back, and the agent gets the changed plan to submit again. */
function sendBack(facts: ReviewFacts, body: DecisionInput, d: Judged, p: Prepared): Outcome {
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
function close(c: Ctx, held: HeldRule[], approver: Approver | null): Outcome {
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
  const { facts, body, d, p } = c;
  const { review, version, state } = facts;
  const signer = signerOfDecider(d);
  const callId = version.toolCallId;
  if (!callId) return refuse("conflict", "That review is not tied to a tool call.");
  const approve = body.decision === "approve";
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
  const status = ({ approve: "approved", reject: "rejected", abandon: "abandoned" } as const)[body.decision];
  const rows: Row[] = [
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
  const effects: Effect[] = [...(how.effects ?? []), ...(abandon ? [] : [{ kind: "baseline-then-drive" as const }])];
  return { status: "closed", events, rows, effects, held };
}

/** A lead's answer from the mailbox closes its request there, with the response the teammate's mailbox keeps. */
function mailRow(mail: MailAnswer, approve: boolean, feedback: string | undefined): Row {
  const words = feedback?.trim();
  return { kind: "answer-mail", mail, approve, ...(words ? { feedback: words } : {}) };
}
