// Issue 46: who is told that an item waits: exactly the people whose decision would move it, by the same functions
// that put it under "Needs you" on their desk and that accept the decision (standingOf, may, releasesHeld).
import "server-only";
import { type Actor, may } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { listPeople, type Person } from "../db/people/people";
import type { Membership } from "../auth/rules/rights";
import { standingOf } from "../review/check-decider";
import { readStandingFacts, type Waiting } from "../review/list-waiting";
import { type HeldRule, releasesHeld } from "../review/rules/review-policy";
import { listReviews } from "../review/read-review";
import { listRequests } from "../session/permission-store";

export type Recipient = { userId: string; name: string; email: string };
type PersonWith = Person & { memberships: Membership[] };

const actorOf = (p: PersonWith): Actor => ({ kind: "person", userId: p.id, name: p.name, memberships: p.memberships });
const recipient = (p: PersonWith): Recipient => ({ userId: p.id, name: p.name, email: p.email });

/** Everyone who can be told anything: a deactivated person is told nothing. */
async function activePeople(db: Db): Promise<PersonWith[]> {
  return (await listPeople(db)).filter((p) => p.deactivatedAt === null);
}

/**
 * The people whose approval of this pending plan review would count now (its policy, its path owners, the
 * self-approval rule, a teammate's plan going to its lead's people), or, for a question, who may answer it.
 */
export async function reviewRecipients(db: Db, review: Waiting, workspace: string): Promise<Recipient[]> {
  const people = await activePeople(db);
  if (review.kind !== "plan-review") return people.filter((p) => may(actorOf(p), "answer", workspace)).map(recipient);
  const facts = (await readStandingFacts(db, [review])).facts.get(review.id);
  if (!facts) return [];
  return people
    .filter(
      (p) =>
        standingOf(facts, {
          actor: actorOf(p),
          me: { by: "person", userId: p.id, name: p.name, email: p.email },
        }).counts,
    )
    .map(recipient);
}

/**
 * Who may answer a permission ask: anyone who may answer in its workspace, except that a write under a path the
 * review policy holds is its reviewers' (issue 41); with no reviewer named there, the workspace's owners.
 */
export async function askRecipients(db: Db, workspace: string, held: readonly HeldRule[]): Promise<Recipient[]> {
  const people = (await activePeople(db)).filter((p) => may(actorOf(p), "answer", workspace));
  if (held.length === 0) return people.map(recipient);
  const named = held.some((r) => r.reviewers.length > 0);
  return people
    .filter((p) => (named ? releasesHeld(held, p.email) : may(actorOf(p), "manage", workspace)))
    .map(recipient);
}

/** The workspace's owners: whom an item nobody acted on is escalated to. */
export async function ownerRecipients(db: Db, workspace: string): Promise<Recipient[]> {
  return (await activePeople(db)).filter((p) => may(actorOf(p), "manage", workspace)).map(recipient);
}

/** Who can act on a waiting item now (their standing may have changed since it was first told); null once decided. */
export async function actorsNow(db: Db, itemId: string, workspace: string): Promise<Recipient[] | null> {
  const [review] = await listReviews(db, { id: itemId });
  if (review) return review.status === "pending" ? reviewRecipients(db, review, workspace) : null;
  const [ask] = await listRequests(db, { id: itemId });
  if (!ask || ask.status !== "pending") return null;
  return askRecipients(db, workspace, Array.isArray(ask.metadata.heldFor) ? (ask.metadata.heldFor as HeldRule[]) : []);
}

/** These people, if they are still active (the starter told of their plan's decision). */
export async function peopleById(db: Db, ids: readonly string[]): Promise<Recipient[]> {
  const want = new Set(ids);
  return (await activePeople(db)).filter((p) => want.has(p.id)).map(recipient);
}
