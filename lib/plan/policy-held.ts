import "server-only";
import { type HeldRule, heldRules, parseOwners } from "../review/rules/review-policy";
import type { Conn } from "../db/client";
import { policyFor } from "../db/plans/policies";

/**
 * Every pattern the workspace's review policy names (its path rules and the trusted owners file), with whom each
 * belongs to: what a session is held to before a plan of it was approved (lib/review/rules/held-asks heldRulesOf). The same
 * computation as an approval's, with no approvals yet.
 */
export async function policyHeldRules(conn: Conn, workspace: string): Promise<HeldRule[]> {
  const policy = await policyFor(conn, workspace);
  if (policy.paths.length === 0 && !policy.owners) return [];
  return heldRules({ policy, owners: parseOwners(policy.owners ?? ""), approvals: [], starter: null });
}
