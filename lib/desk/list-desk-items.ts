import { may, readableRoots, type Actor } from "../auth/rules/rights";
import {
  agentLabel,
  askTitle,
  type DeskFilter,
  type DeskItem,
  deskOrder,
  deskPage,
  filterDesk,
  openItem,
  planTitle,
} from "./views/desk-view";
import type { Db } from "../db/client";
import { findPerson } from "../db/people/people";
import { type HeldRule, releasesHeld } from "../review/rules/review-policy";
import {
  type DeskReviewRow,
  listDeskReviewRows,
  listReviewPayloads,
  type ReviewedVersionOf,
} from "../db/plans/reviews";
import { listSessionRowsById } from "../db/sessions";
import { isLeadReview } from "../review/load-review";
import { policyIsPlain, readPositions } from "../review/list-waiting";
import type { ReviewPosition } from "../review/read-review";
import { isExternalModel } from "../session/external-agents";
import { listRequests, type PermissionRequestView } from "../session/permission-store";
import { getTeam, type TeamView } from "../team/get-team";

/** One page of the desk, the item to open, and the counts of all of it. */
export type Desk = {
  /** The page asked for, filtered, oldest first; `next`: the following page's `after`. */
  page: DeskItem[];
  next: string | null;
  /** The item asked for when it still waits (on any page), else the page's first. */
  open: DeskItem | undefined;
  /** How many wait in the reader's workspaces before the filters, how many of those are theirs, how many match. */
  waiting: number;
  forYou: number;
  matched: number;
  /** The filters' choices: every agent and workspace something waits from. */
  agents: string[];
  workspaces: string[];
};

export type DeskAt = { after?: string; limit?: number; item?: string };

/** What every waiting item needs to be counted, filtered and ordered; a page's items are then filled in (`detail`). */
type Entry = Pick<DeskItem, "id" | "kind" | "sessionId" | "workspace" | "agent" | "since" | "team" | "mine"> & {
  /** The whole item, when it costs nothing more to make (a permission ask). */
  item?: DeskItem;
  review?: DeskReviewRow;
  /** A weighed plan's position and version, as its count was made: the page shows the same answer, read once. */
  position?: ReviewPosition;
  version?: ReviewedVersionOf;
};

/**
 * Every plan, question and permission ask waiting in the workspaces `actor` may read, from every source (Plangate's
 * agent, teammates, outside agents), oldest first, each saying who must act and whether it is this reader. Every
 * item is counted from one narrow row; only the page's items read their plan text and policy status, and a plan's
 * version and approvals are read for the count only where a policy or a team weighs who may release it.
 */
export async function listDeskItems(db: Db, actor: Actor, filter: DeskFilter = {}, at: DeskAt = {}): Promise<Desk> {
  const roots = readableRoots(actor);
  const [reviews, asks, email] = await Promise.all([
    listDeskReviewRows(db, roots ?? undefined),
    listRequests(db, { status: "pending", ...(roots ? { roots } : {}) }),
    emailOf(db, actor),
  ]);
  const ordered = deskOrder([
    ...(await reviewEntries(db, actor, reviews)),
    ...(await askEntries(db, actor, asks, email)),
  ]);
  const matching = filterDesk(ordered, filter);
  const { page, next } = deskPage(matching, at.after, at.limit);
  const open = openItem(matching, at.item, page);
  const full = await detail(db, actor, open && !page.includes(open) ? [...page, open] : page);
  return {
    page: page.map((e) => full.get(e.id) as DeskItem),
    next,
    open: open && full.get(open.id),
    waiting: ordered.length,
    forYou: ordered.filter((e) => e.mine).length,
    matched: matching.length,
    agents: [...new Set(ordered.map((e) => e.agent))].sort(),
    workspaces: [...new Set(ordered.map((e) => e.workspace))].sort(),
  };
}

async function reviewEntries(db: Db, actor: Actor, rows: readonly DeskReviewRow[]): Promise<Entry[]> {
  const plain = policyIsPlain(db);
  const plainIn = new Map(
    await Promise.all([...new Set(rows.map((r) => r.workspace))].map(async (w) => [w, await plain(w)] as const)),
  );
  const lead = new Set(rows.filter((r) => isLeadReview({ intent: JSON.parse(r.intent) as unknown })).map((r) => r.id));
  const teams = new Map(
    await Promise.all(
      [...new Set(rows.flatMap((r) => (lead.has(r.id) && r.teamId ? [r.teamId] : [])))].map(
        async (id) => [id, await getTeam(db, id).catch(() => null)] as const,
      ),
    ),
  );
  // Whose decision counts is the server's own answer (standingOf), so "Needs you" never promises a refused click.
  // Under a plain policy that answer is "whoever may decide here" for any plan but a teammate's.
  const weighed = rows.filter((r) => r.kind === "plan-review" && (lead.has(r.id) || plainIn.get(r.workspace) !== true));
  const { positions, versions } = await readPositions(db, actor, weighed.map(waitingOf));
  const decidesIn = new Map([...plainIn.keys()].map((w) => [w, may(actor, "decide", w)]));
  return rows.map((r): Entry => {
    const team = lead.has(r.id) && r.teamId ? (teams.get(r.teamId) ?? null) : null;
    const member = team?.teammates.find((t) => t.sessionId === r.sessionId);
    const decides = decidesIn.get(r.workspace) === true;
    return {
      id: r.id,
      kind: r.kind === "plan-review" ? "plan" : "question",
      sessionId: r.sessionId,
      workspace: r.workspace,
      agent: member ? `Teammate ${member.name}` : agentLabel(r.agent, isExternalModel(r.model)),
      since: new Date(r.createdAt).toISOString(),
      team: team ? { id: team.id, name: team.name } : null,
      mine: decides && (r.kind !== "plan-review" || positions.get(r.id)?.standing?.counts !== false),
      review: r,
      position: positions.get(r.id),
      version: versions.get(r.id),
    };
  });
}

const waitingOf = (r: DeskReviewRow) => ({
  id: r.id,
  sessionId: r.sessionId,
  kind: r.kind,
  intent: JSON.parse(r.intent) as unknown,
  status: "pending",
});

async function askEntries(
  db: Db,
  actor: Actor,
  asks: readonly PermissionRequestView[],
  email: string | null,
): Promise<Entry[]> {
  const sessions = new Map(
    (await listSessionRowsById(db, [...new Set(asks.map((a) => a.sessionId))])).map((s) => [s.id, s]),
  );
  return asks.flatMap((a) => {
    const s = sessions.get(a.sessionId);
    if (!s) return [];
    // A write under a held path is its reviewers' to answer (issue 41): the desk says whose, and is theirs only.
    const held = Array.isArray(a.metadata.heldFor) ? (a.metadata.heldFor as HeldRule[]) : [];
    const reviewers = [...new Set(held.flatMap((r) => r.reviewers))];
    const item: DeskItem = {
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
    };
    return [{ ...item, item }];
  });
}

/** The page's items in full: a plan's title and what its policy still needs, a question's words. */
async function detail(db: Db, actor: Actor, entries: readonly Entry[]): Promise<Map<string, DeskItem>> {
  const reviews = entries.flatMap((e) => (e.review ? [e.review] : []));
  // A weighed plan's position and version came with its count; only the others are read here.
  const plans = entries.flatMap((e) => (e.review?.kind === "plan-review" && !e.position ? [e.review] : []));
  const questions = reviews.filter((r) => r.kind !== "plan-review").map((r) => r.id);
  const [{ positions, versions }, payloads, sessions] = await Promise.all([
    readPositions(db, actor, plans.map(waitingOf)),
    listReviewPayloads(db, questions),
    listSessionRowsById(db, [...new Set(reviews.map((r) => r.sessionId))]),
  ]);
  const payloadOf = new Map(payloads.map((p) => [p.id, p.payload]));
  const titleOf = new Map(sessions.map((s) => [s.id, s.title]));
  const out = new Map<string, DeskItem>();
  for (const e of entries) {
    if (e.item) out.set(e.id, e.item);
    if (!e.review) continue;
    const r = e.review;
    const base = { ...baseOf(e), session: titleOf.get(r.sessionId) ?? "" };
    if (r.kind !== "plan-review") {
      out.set(e.id, { ...base, title: questionTitle(payloadOf.get(e.id) ?? ""), needs: "an answer", policy: false });
      continue;
    }
    const position = e.position ?? positions.get(e.id);
    const policy = position && !position.status.plain ? position.status.line : null;
    out.set(e.id, {
      ...base,
      title: planTitle((e.version ?? versions.get(e.id))?.content ?? ""),
      needs: policy ?? (e.team ? "the team lead" : "a reviewer"),
      policy: policy !== null,
      ...(position?.standing && !position.standing.counts ? { why: position.standing.reason } : {}),
    });
  }
  return out;
}

const baseOf = (e: Entry) => ({
  id: e.id,
  kind: e.kind,
  sessionId: e.sessionId,
  workspace: e.workspace,
  agent: e.agent,
  since: e.since,
  team: e.team,
  mine: e.mine,
});

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
