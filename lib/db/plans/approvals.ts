import "server-only";
import type { Approver } from "../../review/rules/review-policy";
import { type Conn, kysely } from "../client";

/** Home of ReviewApproval: the approvals a plan review gathered toward its policy, one per person. */
export type ApprovalView = Approver & { credential: string; at: Date; dismissedAt: Date | null };

const OPERATOR = "operator";

/** Records `approver`'s approval of the review (a second one by the same person changes nothing). */
export async function addApproval(
  conn: Conn,
  reviewId: string,
  approver: Approver,
  credential: string,
  at = new Date(),
): Promise<void> {
  const who =
    approver.by === "operator"
      ? { userId: OPERATOR, name: OPERATOR, email: null }
      : { userId: approver.userId, name: approver.name, email: approver.email };
  await kysely(conn)
    .insertInto("ReviewApproval")
    .values({ reviewId, ...who, credential, createdAt: at })
    .onConflict((oc) => oc.columns(["reviewId", "userId"]).doNothing())
    .execute();
}

/** The review's approvals, oldest first; dismissed ones only when asked for. */
export async function listApprovals(
  conn: Conn,
  reviewId: string,
  opts: { dismissed?: boolean } = {},
): Promise<ApprovalView[]> {
  let q = kysely(conn)
    .selectFrom("ReviewApproval")
    .select(["userId", "name", "email", "credential", "createdAt", "dismissedAt"])
    .where("reviewId", "=", reviewId)
    .orderBy("createdAt");
  if (!opts.dismissed) q = q.where("dismissedAt", "is", null);
  return (await q.execute()).map((r) => ({
    ...(r.userId === OPERATOR
      ? { by: "operator" as const }
      : { by: "person" as const, userId: r.userId, name: r.name, email: r.email ?? "" }),
    credential: r.credential,
    at: r.createdAt,
    dismissedAt: r.dismissedAt,
  }));
}

/** Dismisses the review's standing approvals (its plan has a new version); returns whose they were. */
export async function dismissApprovals(conn: Conn, reviewId: string, at = new Date()): Promise<ApprovalView[]> {
  const standing = await listApprovals(conn, reviewId);
  if (standing.length)
    await kysely(conn)
      .updateTable("ReviewApproval")
      .set({ dismissedAt: at })
      .where("reviewId", "=", reviewId)
      .where("dismissedAt", "is", null)
      .execute();
  return standing;
}

/** The standing (not dismissed) approvals of these reviews, by review, each in the order given. */
export async function listApprovalsOf(
  conn: Conn,
  reviewIds: readonly string[],
): Promise<Map<string, (Approver & { at: Date })[]>> {
  const out = new Map<string, (Approver & { at: Date })[]>();
  for (let i = 0; i < reviewIds.length; i += 500) {
    const rows = await kysely(conn)
      .selectFrom("ReviewApproval")
      .select(["reviewId", "userId", "name", "email", "createdAt"])
      .where("reviewId", "in", reviewIds.slice(i, i + 500))
      .where("dismissedAt", "is", null)
      .orderBy("createdAt")
      .execute();
    for (const r of rows) {
      const list = out.get(r.reviewId) ?? [];
      list.push({
        ...(r.userId === OPERATOR
          ? { by: "operator" as const }
          : { by: "person" as const, userId: r.userId, name: r.name, email: r.email ?? "" }),
        at: r.createdAt,
      });
      out.set(r.reviewId, list);
    }
  }
  return out;
}
