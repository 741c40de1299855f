// Which waiting plan reviews a reader's decision would move: "Needs you", "for you" and notifications go by this.
import "server-only";
import type { Actor } from "../auth/rules/rights";
import { parseOwners } from "./rules/review-policy";
import type { Db } from "../db/client";
import { listApprovalsOf } from "../db/plans/approvals";
import { policyFor } from "../db/plans/policies";
import { listPendingReviewsOf, listReviewedVersions, type ReviewedVersionOf } from "../db/plans/reviews";
import { type StandingFacts, standingOf } from "./check-decider";
import { approverOf, isLeadReview, loadLeadPeople, planFiles } from "./load-review";
import { type ReviewPosition, reviewView } from "./read-review";
import type { PolicyFacts } from "./review-types";
import { plainPolicy, statusOf } from "./weigh-policy";

export type Waiting = { id: string; sessionId: string; kind: string; intent: unknown; status: string };

/**
 * What each pending plan review's standing is weighed by (the same facts standingOf gets when the server accepts a
 * decision), keyed by review id, with its reviewed version. Questions and reviews with no plan version are left out.
 * A few queries for the whole list (versions, approvals, each workspace's policy, each team's lead people), never a
 * round of queries per review.
 */
export async function readStandingFacts(
  db: Db,
  reviews: readonly Waiting[],
): Promise<{ facts: Map<string, StandingFacts>; versions: Map<string, ReviewedVersionOf> }> {
  const plans = reviews.filter((r) => r.kind === "plan-review" && r.status === "pending");
  const ids = plans.map((r) => r.id);
  const [versionRows, approvals] = await Promise.all([listReviewedVersions(db, ids), listApprovalsOf(db, ids)]);
  const versions = new Map(versionRows.map((v) => [v.reviewId, v]));
  const policies = once((workspace: string) => policyFor(db, workspace));
  const leads = once((teamId: string) => loadLeadPeople(db, teamId));
  const facts = new Map<string, StandingFacts>();
  for (const r of plans) {
    const version = versions.get(r.id);
    if (!version) continue;
    const policy = await policies(version.workspace);
    const owners = parseOwners(policy.owners ?? "");
    const plain = plainPolicy({ policy, owners });
    const needs: PolicyFacts = {
      policy,
      owners,
      plain,
      files: plain ? [] : planFiles(version.content),
      starter: plain ? null : version.startedBy,
      approvals: (approvals.get(r.id) ?? []).map((a) => ({ ...a, at: a.at.toISOString() })),
    };
    const lead = isLeadReview(r);
    const leadPeople = lead && version.teamId ? await leads(version.teamId) : null;
    facts.set(r.id, { workspace: version.workspace, lead, leadPeople, needs });
  }
  return { facts, versions };
}

/**
 * Each pending plan review's position for `actor` (the same standingOf the server accepts a decision by), keyed by
 * review id, with its reviewed version (see readStandingFacts). A review that needs a person is never hidden.
 */
export async function readPositions(
  db: Db,
  actor: Actor,
  reviews: readonly Waiting[],
): Promise<{ positions: Map<string, ReviewPosition>; versions: Map<string, ReviewedVersionOf> }> {
  const [{ facts, versions }, me] = await Promise.all([readStandingFacts(db, reviews), approverOf(db, actor)]);
  const positions = new Map<string, ReviewPosition>();
  for (const [id, f] of facts) positions.set(id, { status: statusOf(f.needs), standing: standingOf(f, { actor, me }) });
  return { positions, versions };
}

/**
 * Whether a workspace's review policy is plain (one approval by anyone who may decide releases a plan): there, a
 * waiting plan that is not a teammate's is a reader's exactly when they may decide in that workspace, with no
 * version or approvals read. Memoised per workspace for one listing.
 */
export function policyIsPlain(db: Db): (workspace: string) => Promise<boolean> {
  return once(async (workspace) => {
    const policy = await policyFor(db, workspace);
    return plainPolicy({ policy, owners: parseOwners(policy.owners ?? "") });
  });
}

/** Each pending plan review's position for `actor`, keyed by review id (see readPositions). */
export async function positionsFor(
  db: Db,
  actor: Actor,
  reviews: readonly Waiting[],
): Promise<Map<string, ReviewPosition>> {
  return (await readPositions(db, actor, reviews)).positions;
}

/** Of these sessions, the ones waiting on a plan review `actor`'s decision would not move (it waits for others). */
export async function waitingOnOthers(db: Db, actor: Actor, sessionIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (sessionIds.length === 0) return out;
  const pending = (await listPendingReviewsOf(db, sessionIds)).map(reviewView);
  const { positions } = await readPositions(db, actor, pending);
  for (const r of pending) if (positions.get(r.id)?.standing?.counts === false) out.add(r.sessionId);
  return out;
}

/** A read memoised by key for one listing (a workspace's policy, a team's lead people). */
function once<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let p = seen.get(key);
    if (!p) {
      p = read(key);
      seen.set(key, p);
    }
    return p;
  };
}
