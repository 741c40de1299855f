// Reads what a plan review's decision or standing weighs (policy, approvals, lead people, threads), in the caller's transaction.
import "server-only";
import { receivesOf } from "./rules/agent-receives";
import type { SessionState } from "../session/log/fold";
import type { Actor } from "../auth/rules/rights";
import { type Approver, parseOwners } from "./rules/review-policy";
import type { Conn } from "../db/client";
import { listApprovals } from "../db/plans/approvals";
import { listPlanComments } from "../db/plans/comments";
import { policyFor } from "../db/plans/policies";
import { findReviewedVersion, reviewIsPending } from "../db/plans/reviews";
import { findPerson } from "../db/people/people";
import { findSessionOwner } from "../db/sessions";
import { listTeamLeads } from "../db/teams/team-leads";
import { findTeam } from "../db/teams/teams";
import { newId } from "../id";
import type { ModeGates } from "../permission";
import { isExternalModel } from "../session/external-agents";
import { planItems } from "../verify/plan-items";
import type { StoredComment } from "./anchor-threads";
import type { LeadPeople, PolicyFacts, ReviewFacts, ReviewView, StandingApproval, VersionFacts } from "./review-types";
import { plainPolicy } from "./weigh-policy";

/** The files a plan's items name (the verification's parser), in the order they first appear. */
export function planFiles(markdown: string): string[] {
  return [...new Set(planItems(markdown).flatMap((i) => i.files))];
}

/** A teammate's plan review, decided by its lead through the mailbox (never released by the browser review route). */
export function isLeadReview(review: { intent: unknown }): boolean {
  const intent = review.intent;
  return typeof intent === "object" && intent !== null && (intent as { approver?: unknown }).approver === "lead";
}

type Version = Pick<VersionFacts, "workspace" | "content"> & { sessionId: string };

/** What the policy weighs this version by, with its standing approvals. A plain policy reads nothing more. */
export async function loadNeeds(
  conn: Conn,
  reviewId: string,
  version: Version,
  read: { approvals?: boolean } = {},
): Promise<PolicyFacts> {
  const policy = await policyFor(conn, version.workspace);
  const owners = parseOwners(policy.owners ?? "");
  const plain = plainPolicy({ policy, owners });
  // A plain policy weighs nothing when deciding: no plan to parse, no starter, no approvals (a decision stays a
  // few reads); its standing approvals are read only to say who approved.
  if (plain)
    return {
      policy,
      owners,
      files: [],
      starter: null,
      approvals: read.approvals ? await standing(conn, reviewId) : [],
      plain,
    };
  const [owner, approvals] = await Promise.all([findSessionOwner(conn, version.sessionId), standing(conn, reviewId)]);
  return { policy, owners, plain, files: planFiles(version.content), starter: owner?.startedBy ?? null, approvals };
}

async function standing(conn: Conn, reviewId: string): Promise<StandingApproval[]> {
  return (await listApprovals(conn, reviewId)).map(({ credential: _c, dismissedAt: _d, at, ...a }) => ({
    ...a,
    at: at.toISOString(),
  }));
}

/** The lead session's people, for a teammate's plan (null: not a team's, or its lead session is gone). */
export async function loadLeadPeople(conn: Conn, teamId: string | undefined): Promise<LeadPeople | null> {
  const team = teamId ? await findTeam(conn, teamId) : undefined;
  const lead = team ? await findSessionOwner(conn, team.leadSessionId) : undefined;
  if (!team || !lead) return null;
  const leads = (await listTeamLeads(conn, team.id)).map((l) => l.userId);
  return { workspace: lead.workspace, startedBy: lead.startedBy, leads };
}

/** The actor as the review policy knows them (a person with their email, the operator), or null (a token of no one). */
export async function approverOf(conn: Conn, actor: Actor | undefined): Promise<Approver | null> {
  if (!actor) return null;
  if (actor.kind === "operator") return { by: "operator" };
  if (actor.kind !== "person" && actor.kind !== "reviewer-token") return null;
  const person = await findPerson(conn, { id: actor.userId });
  return { by: "person", userId: actor.userId, name: actor.name, email: person?.email ?? "" };
}

/** Everything decide() weighs, read on `run` (the writer's transaction); null when the review has no plan version. */
export async function loadFacts(
  run: Conn,
  review: ReviewView,
  input: { state: SessionState; gates: ModeGates; actor?: Actor | undefined; threads: boolean },
): Promise<ReviewFacts | null> {
  const row = await findReviewedVersion(run, review.id);
  if (!row) return null;
  const outside = isExternalModel(row.model);
  const lead = isLeadReview(review);
  const needs = await loadNeeds(run, review.id, row);
  // A plain approval closes the review, whose guard (still pending) is in the closing row itself.
  const pending = needs.plain || (await reviewIsPending(run, review.id));
  const [me, leadPeople, roots] = await Promise.all([
    approverOf(run, input.actor),
    lead ? loadLeadPeople(run, input.state.team?.id) : null,
    input.threads ? threadRoots(run, row.planId) : new Map<string, StoredComment>(),
  ]);
  return {
    review: { id: review.id, sessionId: review.sessionId, status: pending ? "pending" : "decided", lead },
    version: { ...row, outside, receives: receivesOf(row.agent, outside) },
    needs,
    me,
    leadPeople,
    roots,
    state: input.state,
    gates: input.gates,
    now: new Date(),
    turnId: newId("trn"),
  };
}

async function threadRoots(conn: Conn, planId: string): Promise<Map<string, StoredComment>> {
  const rows = await listPlanComments(conn, planId);
  return new Map(
    rows.map((r) => [
      r.id,
      { ...r, createdAt: r.createdAt.toISOString(), resolvedAt: r.resolvedAt?.toISOString() ?? null },
    ]),
  );
}
