// The one decision on a plan review, pure: (facts, decision, who decides) → the events, rows and after-commit effects, or a refusal.
import type { NewEvent } from "../session/log/events";
import { credentialOf, signedBy } from "../auth/rules/rights";
import { heldRules } from "./rules/review-policy";
import { gate } from "../permission";
import { quoteLines, suggested } from "./anchor-threads";
import { type Standing, standingOf } from "./check-decider";
import { answeredElsewhere } from "./close-elsewhere";
import { close, type Prepared, type Refused, refuse, reviewRows, sendBack, signerOfDecider } from "./close-decision";
import type { DecisionInput, Decider, Judged, NewPlanComment, Outcome, ReviewFacts, Row } from "./review-types";
import { verdictOf } from "./weigh-policy";
import { formatComments, formatThreads, unreceived } from "./write-agent-message";

export type { DecisionInput } from "./review-types";

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
