// Where a review stands under its policy, in words: who approved (and when), what is still open and who can meet it.
import {
  type Approver,
  judgePolicy,
  type OwnersLine,
  type PolicyVerdict,
  type ReviewPolicy,
} from "./rules/review-policy";
import type { PolicyFacts, StandingApproval } from "./review-types";

/** A policy one approval by anyone who may decide meets: the default, where nothing is weighed. */
export function plainPolicy(p: { policy: ReviewPolicy; owners: readonly OwnersLine[] }): boolean {
  const { policy, owners } = p;
  return policy.approvals === 1 && policy.allowSelfApproval && policy.paths.length === 0 && owners.length === 0;
}

export type ReviewStatus = {
  met: boolean;
  plain: boolean;
  /** Approvals that count, oldest first. */
  approved: { name: string; at: string; userId: string | null }[];
  /** What is still open: how many more, and who may give them ("a reviewer", "team db for prisma/migrations/x.sql"). */
  open: { need: number; who: string; kind: "approvals" | "path" | "owners" }[];
  /** One line for the card, the desk and the mailbox. */
  line: string;
  /** The policy's own short summary ("1 of 2 approvals · needs team db"), kept for webhooks and events. */
  summary: string;
  requirements: PolicyVerdict["requirements"];
};

const nameOf = (a: Approver) => (a.by === "operator" ? "the operator" : a.name);
const time = (iso: string) => iso.slice(11, 16);
const people = (reviewers: readonly string[]) =>
  reviewers.map((r) => (r.startsWith("team:") ? `team ${r.slice(5)}` : r)).join(" or ");

/** The verdict of these facts (the standing approvals judged against what the version needs). */
export function verdictOf(needs: PolicyFacts, extra: readonly Approver[] = []): PolicyVerdict {
  return judgePolicy({ ...needs, approvals: [...needs.approvals, ...extra] });
}

/**
 * Where the review stands. `decided`: the review was closed (approved or not), so the words say that rather than
 * what a pending one still needs: an approved review reads as met whatever the policy would say now.
 */
export function statusOf(needs: PolicyFacts, decided?: "approved" | "rejected" | "abandoned" | string): ReviewStatus {
  const verdict = verdictOf(needs);
  const approved = counted(needs).map((a) => ({
    name: nameOf(a),
    at: a.at,
    userId: a.by === "person" ? a.userId : null,
  }));
  const open = verdict.requirements
    .filter((r) => !r.met)
    .map((r) => {
      const need = r.need - r.have.length;
      if (r.kind === "approvals") return { kind: r.kind, need, who: need === 1 ? "a reviewer" : `${need} reviewers` };
      const who = `${need > 1 ? `${need} of ` : ""}${people(r.reviewers)} for ${r.files.join(", ")}`;
      return { kind: r.kind, need, who };
    });
  const met = decided ? decided === "approved" : verdict.met;
  const by = approved.map((a) => `${a.name} (${time(a.at)})`).join(", ");
  const line = met
    ? by
      ? `Approved by ${by}`
      : "Approved"
    : [by ? `Approved by ${by}` : "", decided ? "" : stillNeeds(open)].filter(Boolean).join(" · ");
  return {
    met,
    plain: needs.plain,
    approved,
    open: met ? [] : open,
    line,
    summary: verdict.summary,
    requirements: verdict.requirements,
  };
}

/** The standing approvals that count (one per person; the session's starter not when self-approval is off). */
function counted(needs: PolicyFacts): StandingApproval[] {
  const seen = new Set<string>();
  return needs.approvals.filter((a) => {
    const key = a.by === "operator" ? "operator" : a.userId;
    if (seen.has(key)) return false;
    seen.add(key);
    return needs.policy.allowSelfApproval || a.by === "operator" || a.userId !== needs.starter;
  });
}

/**
 * "Needs 1 more: a reviewer", "Needs 1 more: team db for prisma/migrations/x.sql": a named person's approval counts
 * toward the overall count too, so the count shows only for the approvals beyond what the named rules need.
 */
function stillNeeds(open: ReviewStatus["open"]): string {
  const count = open.find((o) => o.kind === "approvals");
  const named = open.filter((o) => o.kind !== "approvals");
  const most = Math.max(0, ...named.map((o) => o.need));
  const beyond = (count?.need ?? 0) - most;
  const parts = named.map((o) => o.who);
  if (beyond > 0 && count) parts.push(parts.length ? `${beyond} more reviewer${beyond === 1 ? "" : "s"}` : count.who);
  return `Needs ${Math.max(most, count?.need ?? 0)} more: ${parts.join("; and ")}`;
}
