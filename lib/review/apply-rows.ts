// The rows a review's closing or decision writes, each onto its lib/db home, in the caller's transaction.
import "server-only";
import type { Signer } from "../auth/rules/rights";
import type { Executor } from "../db/client";
import { addApproval } from "../db/plans/approvals";
import { closeReview } from "../db/plans/close-review";
import { insertPlanComments, resolvePlanThreads } from "../db/plans/comments";
import { appendAudit } from "../db/people/audit";
import { indexDocs } from "../db/session-log/search-rows";
import { markMailAnswered } from "../db/teams/mailbox-rows";
import { AppError } from "../errors";
import { insertMail } from "../team/mailbox";
import { BASELINE_NONE, holdForBaseline } from "../verify/take-baseline";
import { dismissStaleApprovals } from "./dismiss-stale-approvals";
import type { Row } from "./review-types";

/** The review the rows are about, and its session. */
export type RowTarget = { reviewId: string; sessionId: string };

/** Applies rows in order; the baseline's lease token when a row claims it. */
export async function applyRows(run: Executor, target: RowTarget, rows: readonly Row[]): Promise<string | null> {
  let token: string | null = null;
  for (const row of rows) token = (await applyRow(run, target, row)) ?? token;
  return token;
}

async function applyRow(run: Executor, { reviewId, sessionId }: RowTarget, row: Row): Promise<string | null> {
  const at = new Date();
  switch (row.kind) {
    case "close": {
      const { version, signer, kind: _, ...verdict } = row;
      const closing = version && {
        content: version.content,
        editedByUser: version.editedByUser,
        baselineTree: version.outside ? BASELINE_NONE : null,
      };
      const closed = await closeReview(run, reviewId, {
        ...verdict,
        decidedAt: at,
        ...(signer ? { signer } : {}),
        ...(closing ? { version: closing } : {}),
      });
      if (!closed) throw new AppError("already_decided", "That review was already decided.");
      return null;
    }
    case "approval":
      await addApproval(run, reviewId, row.approver, row.credential, at);
      return null;
    case "comments":
      await insertPlanComments(run, row.planId, row.version, row.comments, row.author, at);
      return null;
    case "resolve":
      await resolvePlanThreads(run, row.planId, row.ids, row.author, at);
      return null;
    case "index-plan":
      await indexDocs(run, sessionId, [{ kind: "plan", body: row.body }]);
      return null;
    case "audit":
      await audit(run, row.signer, row.what, { sessionId, workspace: row.workspace, reviewId }, row.detail);
      return null;
    case "answer-mail":
      await answerMail(run, row);
      return null;
    case "dismiss-approvals":
      await dismissStaleApprovals(run, sessionId, reviewId, row.newVersion);
      return null;
    case "hold-baseline":
      return holdForBaseline(run, sessionId);
  }
}

const audit = (
  run: Executor,
  signer: Signer,
  kind: string,
  at: { sessionId: string; workspace: string; reviewId: string },
  detail: Record<string, unknown>,
) => appendAudit(run, { signer, kind, sessionId: at.sessionId, workspace: at.workspace, subject: at.reviewId, detail });

/** The lead's answer closes its mailbox request (of two racing answers the first wins) and is stored beside it. */
async function answerMail(run: Executor, row: Extract<Row, { kind: "answer-mail" }>): Promise<void> {
  const { mail } = row;
  if (!(await markMailAnswered(run, mail.mailId, new Date())))
    throw new AppError("already_decided", "That plan approval request was already answered.");
  // The teammate reads the answer as its exit tool's result; the stored response keeps the mailbox complete.
  await insertMail(run, {
    teamId: mail.teamId,
    from: mail.lead,
    to: mail.teammate,
    type: "plan_approval_response",
    requestId: mail.requestId,
    payload: { approve: row.approve, ...(row.feedback ? { feedback: row.feedback } : {}) },
    status: "read",
  });
}
