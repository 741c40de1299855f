// Who may decide a plan review and whether their approval counts: the one answer for the server, the desk and the card.
import { type Actor, may, mayAnswerMailbox } from "../auth/rules/rights";
import { type Approver, canAdvance } from "./rules/review-policy";
import type { LeadPeople, PolicyFacts, RefusalCode, StandingApproval } from "./review-types";
import { statusOf } from "./weigh-policy";

/**
 * A person's standing on a pending plan review.
 * - `counts`: their approval would count now (Approve enabled, "Needs you", "for you").
 * - `via`: where it is sent: "desk" (the decision route, which may release the plan), "mailbox" (a teammate's plan,
 *   answered by its lead's people), "record-only" (a teammate's plan: the approval counts toward the policy only).
 * - `sendBack`: they may request changes.
 * - `approvedAt`: their approval already stands. `reason`/`code`: why not, in words and as the server refuses.
 */
export type Standing = {
  counts: boolean;
  via: "desk" | "mailbox" | "record-only" | null;
  sendBack: boolean;
  approvedAt: string | null;
  reason: string;
  code: RefusalCode | null;
};

export type StandingFacts = {
  workspace: string;
  /** A teammate's plan, answered by its lead. */
  lead: boolean;
  leadPeople: LeadPeople | null;
  needs: PolicyFacts;
};

const same = (a: Approver, b: Approver) =>
  a.by === "operator" ? b.by === "operator" : b.by === "person" && a.userId === b.userId;

const no = (code: RefusalCode, reason: string, approvedAt: string | null = null, sendBack = false): Standing => ({
  counts: false,
  via: null,
  sendBack,
  approvedAt,
  reason,
  code,
});

/**
 * `from`: the route the decision came through ("desk": the decision route; "mailbox": the team's reply route);
 * without it, the best way this person has (what the desk and the card offer).
 */
export function standingOf(
  f: StandingFacts,
  who: { actor: Actor; me: Approver | null },
  from?: "desk" | "mailbox",
): Standing {
  const { actor, me } = who;
  if (!may(actor, "decide", f.workspace))
    return no("forbidden", `You may not decide plans in ${f.workspace}: ask an owner for a role there.`);
  const mine = me ? (f.needs.approvals.find((a) => same(a, me)) ?? null) : null;
  const leads = f.lead && f.leadPeople !== null && mayAnswerMailbox(actor, f.leadPeople);
  if (f.lead && leads && from !== "desk") return weigh(f, me, mine, "mailbox");
  if (from === "mailbox") return no("forbidden", "Only the team's lead people (or an owner) answer its mailbox.");
  if (f.lead && f.needs.plain)
    return no("forbidden", "This is a teammate's plan: its team lead's people answer it, from the team mailbox.");
  return weigh(f, me, mine, f.lead ? "record-only" : "desk");
}

/** Whether `me`'s approval would count, sent this way. */
function weigh(f: StandingFacts, me: Approver | null, mine: StandingApproval | null, via: Standing["via"]): Standing {
  const sendBack = via !== "record-only";
  const yes: Standing = { counts: true, via, sendBack, approvedAt: mine?.at ?? null, reason: "", code: null };
  const { needs } = f;
  // A plain policy weighs nothing: one approval by anyone who may decide releases the plan.
  if (needs.plain) return yes;
  if (!me) return no("person_required", "This workspace's review policy needs people to approve its plans.");
  if (!needs.policy.allowSelfApproval && me.by === "person" && me.userId === needs.starter)
    return no(
      "forbidden",
      "You started this session: under this workspace's review policy someone else must approve its plan.",
      null,
      sendBack,
    );
  const status = statusOf(needs);
  if (mine) {
    // An approval that stands and, with the others, meets the policy: the lead's answer may now release it.
    if (status.met && via === "mailbox") return yes;
    return no(
      "already_decided",
      `You approved at ${mine.at.slice(11, 16)} · waiting for ${waiting(status.line)}`,
      mine.at,
      sendBack,
    );
  }
  if (status.met)
    return via === "record-only"
      ? no("already_decided", "The policy is met: the team lead's answer releases the plan.")
      : yes;
  if (canAdvance(needs, me)) return yes;
  return no(
    "forbidden",
    `Your approval would not count toward what is still open: ${waiting(status.line)}`,
    null,
    sendBack,
  );
}

const waiting = (line: string) => line.replace(/^.*?Needs /, "").replace(/^\d+ more: /, "") || "the policy";
