// The thin writer: loads the facts, runs decide(), commits its events and rows in one transaction, then runs its effects.
import "server-only";
import type { Db, Executor } from "../db/client";
import { addApproval } from "../db/plans/approvals";
import { closeReview } from "../db/plans/close-review";
import { insertPlanComments, resolvePlanThreads } from "../db/plans/comments";
import { appendAudit } from "../db/people/audit";
import { indexDocs } from "../db/session-log/search-index";
import { AppError } from "../errors";
import { writePlanFile } from "../plan/plan-file";
import { appendEvents } from "../session/append-events";
import { readGates } from "../session/mode-gates";
import { BASELINE_NONE, type HeldBaseline, holdForBaseline, takeOwedBaseline } from "../verify/take-baseline";
import { type DecisionInput, decide } from "./decide-review";
import { loadFacts } from "./load-review";
import { listReviews } from "./read-review";
import type { Decider, Effect, Outcome, ReviewView, Row } from "./review-types";

export type CommitOptions = {
  /** Runs the session's turn: the caller's (a route's kick, a tool's runtime); lib/review never calls the driver. */
  drive: (sessionId: string) => Promise<void>;
  /** More rows that go with a decision that closes the review (a team lead's mailbox answer). */
  onClosed?: (run: Executor) => Promise<void>;
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
        for (const row of outcome.rows) {
          const token = await applyRow(run, review, row);
          if (token && row.kind === "hold-baseline")
            held = { token, versionId: row.versionId, workspace: row.workspace };
        }
        if (outcome.status === "closed") await opts.onClosed?.(run);
      },
    },
  );
  if (!outcome) throw new AppError("conflict", "The decision was not written.");
  runEffects(db, review.sessionId, outcome.effects, held, opts.drive);
  const [after] = await listReviews(db, { id: review.id });
  return { review: after ?? review, status: outcome.status };
}

/** One row onto its lib/db home; the baseline's lease token when the row claims it. */
async function applyRow(run: Executor, review: ReviewView, row: Row): Promise<string | null> {
  const at = new Date();
  switch (row.kind) {
    case "close": {
      const { outside, ...version } = row.version;
      const closed = await closeReview(run, review.id, {
        status: row.status,
        decision: row.decision,
        decidedBy: row.decidedBy,
        decidedAt: at,
        feedback: row.feedback,
        ...(row.signer ? { signer: row.signer } : {}),
        version: { ...version, baselineTree: outside ? BASELINE_NONE : null },
      });
      if (!closed) throw new AppError("already_decided", "That review was already decided.");
      return null;
    }
    case "approval":
      await addApproval(run, review.id, row.approver, row.credential, at);
      return null;
    case "comments":
      await insertPlanComments(run, row.planId, row.version, row.comments, row.author, at);
      return null;
    case "resolve":
      await resolvePlanThreads(run, row.planId, row.ids, row.author, at);
      return null;
    case "index-plan":
      await indexDocs(run, review.sessionId, [{ kind: "plan", body: row.body }]);
      return null;
    case "audit":
      await appendAudit(run, {
        signer: row.signer,
        kind: row.what,
        sessionId: review.sessionId,
        workspace: row.workspace,
        subject: review.id,
        detail: row.detail,
      });
      return null;
    case "hold-baseline":
      return holdForBaseline(run, review.sessionId);
  }
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
