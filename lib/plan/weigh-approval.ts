import "server-only";
import { type Actor, credentialOf, may, type Signer, signedBy } from "../core/people";
import {
  type Approver,
  canAdvance,
  type HeldRule,
  heldRules,
  judgePolicy,
  parseOwners,
  type PolicyVerdict,
  type ReviewPolicy,
} from "../core/review-policy";
import { type Conn, type Db, withTransaction } from "../db/client";
import { addApproval, listApprovals } from "../db/plans/approvals";
import { policyFor } from "../db/plans/policies";
import { findReviewedVersion, listReviewRows, type ReviewedVersion, reviewIsPending } from "../db/plans/reviews";
import { appendAudit } from "../db/people/audit";
import { findPerson } from "../db/people/people";
import { withConflictRetry } from "../db/retry";
import { findSessionOwner } from "../db/sessions";
import { AppError } from "../errors";
import { afterCommit, appendEventsInTx } from "../session/append-events";
import { planItems } from "../verify/plan-items";

/** What a plan review needs, from the database's policy for its workspace and the plan's own text. */
export type ReviewNeeds = {
  policy: ReviewPolicy;
  owners: ReturnType<typeof parseOwners>;
  files: string[];
  starter: string | null;
  workspace: string;
};

/** The files a plan's items name (the verification's parser), in the order they first appear. */
export function planFiles(markdown: string): string[] {
  return [...new Set(planItems(markdown).flatMap((i) => i.files))];
}

/** What this version needs under its workspace's policy. */
export async function needsOf(
  conn: Conn,
  version: Pick<ReviewedVersion, "workspace" | "sessionId" | "content">,
): Promise<ReviewNeeds> {
  const policy = await policyFor(conn, version.workspace);
  const owners = parseOwners(policy.owners ?? "");
  const needs = { policy, owners, files: [], starter: null, workspace: version.workspace };
  // The plain policy weighs nothing: no plan to parse, no starter to look up (a decision stays two reads).
  if (plainPolicy(needs)) return needs;
  const owner = await findSessionOwner(conn, version.sessionId);
  return { ...needs, files: planFiles(version.content), starter: owner?.startedBy ?? null };
}

/** A policy one approval by anyone who may decide meets: the default, where nothing is weighed. */
export function plainPolicy(needs: ReviewNeeds): boolean {
  const { policy, owners } = needs;
  return policy.approvals === 1 && policy.allowSelfApproval && policy.paths.length === 0 && owners.length === 0;
}

export async function reviewNeeds(conn: Conn, reviewId: string): Promise<ReviewNeeds | null> {
  const version = await findReviewedVersion(conn, reviewId);
  return version ? needsOf(conn, version) : null;
}

/**
 * A plan review with what its policy still needs (the card's status line) and, for `actor`, whether their
 * approval would move it on (`needsYou`: what a notification and "Waiting for you" go by); others as they are.
 */
export async function withPolicy<R extends { id: string; kind: string; sessionId: string }>(
  db: Db,
  review: R,
  actor?: Actor,
): Promise<R & { policy?: ReviewPolicyStatus & { needsYou?: boolean } }> {
  if (review.kind !== "plan-review") return review;
  const verdict = await reviewVerdict(db, review.id);
  if (!verdict) return review;
  const needsYou = actor ? !(await onlyOthersCanMove(db, actor, [review.sessionId])).has(review.sessionId) : undefined;
  return { ...review, policy: { ...verdict, ...(needsYou === undefined ? {} : { needsYou }) } };
}

/** The review's standing approvals judged against what it needs (for the card's status line and the desk). */
export async function reviewVerdict(conn: Conn, reviewId: string): Promise<ReviewPolicyStatus | null> {
  const needs = await reviewNeeds(conn, reviewId);
  if (!needs) return null;
  return { ...judgePolicy({ ...needs, approvals: await listApprovals(conn, reviewId) }), plain: plainPolicy(needs) };
}

/** A verdict, and whether the policy is the plain one (one approval by anyone who may decide: no line to show). */
export type ReviewPolicyStatus = PolicyVerdict & { plain: boolean };

const sameApprover = (a: Approver, b: Approver) =>
  a.by === "operator" ? b.by === "operator" : b.by === "person" && a.userId === b.userId;

async function approverOf(db: Db, signer: Signer): Promise<Approver> {
  if (signer.by === "operator") return { by: "operator" };
  if (signer.by !== "person") throw new AppError("person_required", "Only a person or the operator approves a plan.");
  const person = await findPerson(db, { id: signer.userId });
  return { by: "person", userId: signer.userId, name: signer.name, email: person?.email ?? "" };
}

/**
 * A person's (or the operator's) approval of a pending plan review, weighed against the workspace's review
 * policy. When it meets the policy the caller closes the review as approved (the approval is recorded with it);
 * otherwise the approval is recorded, signed and audited, and the review stays pending (the agent keeps waiting).
 * Concurrent approvals serialise on the session's log (each appends an event), so of two that together meet the
 * policy the later one sees the earlier and releases: the policy is met exactly once.
 */
export async function weighApproval(
  db: Db,
  review: { id: string; sessionId: string },
  signer: Signer,
  needs: ReviewNeeds,
  /** False: the approval is recorded even when it meets the policy (a teammate's plan waits for its lead too). */
  mayRelease = true,
): Promise<{ met: boolean; verdict: PolicyVerdict; approver: Approver; held: HeldRule[] }> {
  const approver = await approverOf(db, signer);
  if (!needs.policy.allowSelfApproval && approver.by === "person" && approver.userId === needs.starter)
    throw new AppError(
      "forbidden",
      "You started this session: under this workspace's review policy someone else must approve its plan.",
    );
  const outcome = await withConflictRetry(() =>
    withTransaction(db, async (run) => {
      if (!(await reviewIsPending(run, review.id))) throw new AppError("already_decided");
      const standing = await listApprovals(run, review.id);
      const verdict = judgePolicy({ ...needs, approvals: [...standing, approver] });
      if ((verdict.met && mayRelease) || standing.some((a) => sameApprover(a, approver)))
        return {
          met: verdict.met && mayRelease,
          verdict,
          appended: null,
          held: heldRules({ ...needs, approvals: [...standing, approver] }),
        };
      await addApproval(run, review.id, approver, credentialOf(signer));
      const appended = await appendEventsInTx(run, review.sessionId, [
        { type: "review.approved", payload: { reviewId: review.id, by: signedBy(signer), summary: verdict.summary } },
      ]);
      await appendAudit(run, {
        signer,
        kind: "review.approval",
        sessionId: review.sessionId,
        workspace: needs.workspace,
        subject: review.id,
        detail: { summary: verdict.summary },
      });
      return { met: false, verdict, appended, held: [] };
    }),
  );
  if (outcome.appended) afterCommit(review.sessionId, outcome.appended);
  return { met: outcome.met, verdict: outcome.verdict, approver, held: outcome.held };
}

/**
 * Of these sessions, the ones waiting on a plan review that only others can move on: a review policy other than
 * the plain one, and `actor`'s approval would count for none of its open requirements. "Waiting for you", the
 * mailbox count and notifications leave these out; everything else (a plain policy, a review with no plan version,
 * an ask) stays: a review that needs a person is never hidden from one who might be it.
 */
export async function onlyOthersCanMove(db: Db, actor: Actor, sessionIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const me = await actorApprover(db, actor);
  for (const sessionId of sessionIds) {
    const [review] = await listReviewRows(db, { sessionId, status: "pending" });
    if (review?.kind !== "plan-review") continue;
    const needs = await reviewNeeds(db, review.id);
    if (!needs || plainPolicy(needs)) continue;
    const approvals = await listApprovals(db, review.id);
    if (!me || !may(actor, "decide", needs.workspace) || !canAdvance({ ...needs, approvals }, me)) out.add(sessionId);
  }
  return out;
}

async function actorApprover(db: Db, actor: Actor): Promise<Approver | null> {
  if (actor.kind === "operator") return { by: "operator" };
  if (actor.kind === "agent-token") return null;
  const person = await findPerson(db, { id: actor.userId });
  return { by: "person", userId: actor.userId, name: actor.name, email: person?.email ?? "" };
}
