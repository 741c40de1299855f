import { may, readableRoots, type Actor } from "../core/people";
import {
  agentLabel,
  askTitle,
  type DeskFilter,
  type DeskItem,
  deskOrder,
  filterDesk,
  planTitle,
} from "../core/desk-view";
import type { Db } from "../db/client";
import { findPerson } from "../db/people/people";
import { type HeldRule, releasesHeld } from "../core/review-policy";
import { listReviewRows } from "../db/plans/reviews";
import { listSessionRowsById } from "../db/sessions";
import { isLeadReview } from "../review/load-review";
import { readPositions } from "../review/list-waiting";
import { isExternalModel } from "../session/external-agents";
import { listRequests } from "../session/permission-store";
import { getTeam, type TeamView } from "../team/get-team";

export type Desk = {
  /** What waits, filtered, oldest first. */
  items: DeskItem[];
  /** Everything that waits for this reader before the filters: the tab title's count and the filters' choices. */
  all: DeskItem[];
};

/**
 * Every plan, question and permission ask waiting in the workspaces `actor` may read, from every source (Plangate's
 * agent, teammates, outside agents), oldest first, each saying who must act and whether it is this reader.
 */
export async function listDeskItems(db: Db, actor: Actor, filter: DeskFilter = {}): Promise<Desk> {
  const roots = readableRoots(actor);
  const within = roots ? { roots } : {};
  const [reviews, asks] = await Promise.all([
    listReviewRows(db, { status: "pending", ...within }),
    listRequests(db, { status: "pending", ...within }),
  ]);
  const sessions = new Map(
    (await listSessionRowsById(db, [...new Set([...reviews, ...asks].map((r) => r.sessionId))])).map((s) => [s.id, s]),
  );
  // Whose decision counts is the server's own answer (standingOf), so "Needs you" never promises a refused click.
  const { positions, versions } = await readPositions(
    db,
    actor,
    reviews.map((r) => ({ ...r, intent: JSON.parse(r.intent) as unknown })),
  );
  const teams = new Map<string, Promise<TeamView | null>>();
  const teamOf = (id: string) => {
    if (!teams.has(id))
      teams.set(
        id,
        getTeam(db, id).catch(() => null),
      );
    return teams.get(id) as Promise<TeamView | null>;
  };

  const all: DeskItem[] = [];
  for (const r of reviews) {
    const s = sessions.get(r.sessionId);
    if (!s) continue;
    const lead = isLeadReview({ intent: JSON.parse(r.intent) as unknown });
    const team = lead && s.teamId ? await teamOf(s.teamId) : null;
    const member = team?.teammates.find((t) => t.sessionId === s.id);
    const base = {
      id: r.id,
      sessionId: s.id,
      session: s.title,
      workspace: s.workspace,
      agent: member ? `Teammate ${member.name}` : agentLabel(s.agent, isExternalModel(s.model)),
      since: new Date(r.createdAt).toISOString(),
      team: team ? { id: team.id, name: team.name } : null,
    };
    const decides = may(actor, "decide", s.workspace);
    if (r.kind !== "plan-review") {
      all.push({
        ...base,
        kind: "question",
        title: questionTitle(r.payload),
        needs: "an answer",
        policy: false,
        mine: decides,
      });
      continue;
    }
    const version = versions.get(r.id);
    const position = positions.get(r.id);
    const policy = position && !position.status.plain ? position.status.line : null;
    all.push({
      ...base,
      kind: "plan",
      title: planTitle(version?.content ?? ""),
      needs: policy ?? (team ? "the team lead" : "a reviewer"),
      policy: policy !== null,
      mine: decides && position?.standing?.counts !== false,
      ...(position?.standing && !position.standing.counts ? { why: position.standing.reason } : {}),
    });
  }
  const email = await emailOf(db, actor);
  for (const a of asks) {
    const s = sessions.get(a.sessionId);
    if (!s) continue;
    // A write under a held path is its reviewers' to answer (issue 41): the desk says whose, and is theirs only.
    const held = Array.isArray(a.metadata.heldFor) ? (a.metadata.heldFor as HeldRule[]) : [];
    const reviewers = [...new Set(held.flatMap((r) => r.reviewers))];
    all.push({
      id: a.id,
      kind: "permission",
      sessionId: s.id,
      title: askTitle(a.tool, a.patterns),
      session: s.title,
      workspace: s.workspace,
      agent: agentLabel(s.agent, isExternalModel(s.model)),
      since: a.createdAt,
      team: null,
      needs: held.length
        ? `${reviewers.join(" or ") || "an owner, with a reason"} (a path the review policy holds for them)`
        : "a person's permission",
      policy: held.length > 0,
      mine: may(actor, "answer", s.workspace) && (held.length === 0 || releasesHeld(held, email)),
    });
  }
  const ordered = deskOrder(all);
  return { items: filterDesk(ordered, filter), all: ordered };
}

function questionTitle(payload: string): string {
  try {
    const q = (JSON.parse(payload) as { questions?: { question?: unknown }[] }).questions?.[0]?.question;
    return typeof q === "string" && q.trim() ? q.trim().slice(0, 120) : "A question";
  } catch {
    return "A question";
  }
}

/** The reader's email: whom a held path may name. Null for the operator and agent tokens (named by no policy). */
async function emailOf(db: Db, actor: Actor): Promise<string | null> {
  if (actor.kind !== "person" && actor.kind !== "reviewer-token") return null;
  return (await findPerson(db, { id: actor.userId }))?.email ?? null;
}
