// The approvals a replaced plan version gathered: dismissed (and audited) when a new version arrives.
import "server-only";
import type { Signer } from "../auth/rules/rights";
import type { Conn } from "../db/client";
import { dismissApprovals } from "../db/plans/approvals";
import { appendAudit } from "../db/people/audit";

/**
 * A new plan version replaced a pending review: the approvals it gathered are dismissed (they approved another
 * text), each recorded in the audit log under the person whose approval it was. On the replacing transaction.
 */
export async function dismissStaleApprovals(
  run: Conn,
  sessionId: string,
  reviewId: string,
  newVersion: number,
): Promise<void> {
  for (const a of await dismissApprovals(run, reviewId)) {
    const signer: Signer = a.by === "operator" ? { by: "operator" } : { by: "person", userId: a.userId, name: a.name };
    await appendAudit(run, {
      signer,
      kind: "approval.dismissed",
      sessionId,
      subject: reviewId,
      detail: { reason: `plan version ${newVersion} replaced the one approved` },
    });
  }
}
