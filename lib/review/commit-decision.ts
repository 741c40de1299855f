// The thin writer: loads the facts, runs decide(), commits its events and rows in one transaction, then runs its effects.
import "server-only";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { writePlanFile } from "../plan/plan-file";
import { appendEvents } from "../session/append-events";
import { readGates } from "../session/mode-gates";
import { type HeldBaseline, takeOwedBaseline } from "../verify/take-baseline";
import { applyRows } from "./apply-rows";
import { type DecisionInput, decide } from "./decide-review";
import { loadFacts } from "./load-review";
import { listReviews } from "./read-review";
import type { Decider, Effect, Outcome, ReviewView } from "./review-types";

export type CommitOptions = {
  /** Runs the session's turn: the caller's (a route's kick, a tool's runtime); lib/review never calls the driver. */
  drive: (sessionId: string) => Promise<void>;
};

/**
 * One decision on a plan review, committed whole or refused whole (an AppError naming the problem, nothing written).
 * Concurrent decisions serialise on the session's log: of two that together meet a policy the later one sees the
 * earlier and releases, and a review closes exactly once.
 */
export async function commitDecision(
  db: Db,
  review: ReviewView,
  body: DecisionInput,
  decider: Decider,
  opts: CommitOptions,
): Promise<{ review: ReviewView; status: "closed" | "recorded" }> {
  const gates = await readGates(db);
  let outcome: Exclude<Outcome, { refused: unknown }> | undefined;
  let held: HeldBaseline | undefined;
  await appendEvents(
    db,
    review.sessionId,
    async (state, run) => {
      const facts = await loadFacts(run, review, {
        state,
        gates,
        actor: decider.by === "person" ? decider.actor : undefined,
        threads: (body.threads?.length ?? 0) > 0,
      });
      if (!facts) throw new AppError("review_not_found", "That review has no plan version.");
      const out = decide(facts, body, decider);
      if ("refused" in out) throw new AppError(out.refused.code, out.refused.message);
      outcome = out;
      return out.events;
    },
    {
      also: async (run) => {
        held = undefined; // a transaction retried after a conflict claims the lease afresh
        if (!outcome) return;
        const token = await applyRows(run, { reviewId: review.id, sessionId: review.sessionId }, outcome.rows);
        const hold = outcome.rows.find((r) => r.kind === "hold-baseline");
        if (token && hold) held = { token, versionId: hold.versionId, workspace: hold.workspace };
      },
    },
  );
  if (!outcome) throw new AppError("conflict", "The decision was not written.");
  runEffects(db, review.sessionId, outcome.effects, held, opts.drive);
  const [after] = await listReviews(db, { id: review.id });
  return { review: after ?? review, status: outcome.status };
}

/** After the commit: the plan file, then the approval's baseline (the lease it holds keeps every drive out), then the turn. */
function runEffects(
  db: Db,
  sessionId: string,
  effects: Effect[],
  held: HeldBaseline | undefined,
  drive: (sessionId: string) => Promise<void>,
): void {
  for (const effect of effects) {
    if (effect.kind === "write-plan") {
      // The changed text is the plan now; a link planted at the path is replaced, never written through.
      try {
        writePlanFile(effect.workspace, effect.file, effect.content);
      } catch (error) {
        console.error(`plangate: the changed plan of ${sessionId} was not written to its file`, error);
      }
    } else {
      void takeOwedBaseline(db, sessionId, held)
        .catch((error: unknown) => console.error(`plangate: the approval baseline of ${sessionId} failed`, error))
        .then(() => drive(sessionId))
        .catch((error: unknown) => console.error(`plangate: drive ${sessionId} failed`, error));
    }
  }
}
