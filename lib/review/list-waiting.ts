// Which waiting plan reviews a reader's decision would move: "Needs you", "for you" and notifications go by this.
import "server-only";
import type { Actor } from "../core/people";
import type { Db } from "../db/client";
import { listReviews, type ReviewPosition, reviewPosition } from "./read-review";

/**
 * Each pending plan review's position for `actor` (the same standingOf the server accepts a decision by), keyed by
 * review id. Questions and reviews with no plan version are left out: a review that needs a person is never hidden.
 */
export async function positionsFor(
  db: Db,
  actor: Actor,
  reviews: readonly { id: string; sessionId: string; kind: string; intent: unknown; status: string }[],
): Promise<Map<string, ReviewPosition>> {
  const out = new Map<string, ReviewPosition>();
  for (const r of reviews) {
    if (r.kind !== "plan-review" || r.status !== "pending") continue;
    const position = await reviewPosition(db, r, actor);
    if (position) out.set(r.id, position);
  }
  return out;
}

/** Of these sessions, the ones waiting on a plan review `actor`'s decision would not move (it waits for others). */
export async function waitingOnOthers(db: Db, actor: Actor, sessionIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const sessionId of sessionIds) {
    const pending = await listReviews(db, { sessionId, status: "pending" });
    const positions = await positionsFor(db, actor, pending);
    for (const p of positions.values()) if (p.standing && !p.standing.counts) out.add(sessionId);
  }
  return out;
}
