import { heldByPolicy, heldRulesOf } from "../review/rules/held-asks";
import type { SessionState } from "../session/log/fold";
import type { HeldRule } from "../review/rules/review-policy";
import type { Db } from "../db/client";
import { policyHeldRules } from "../plan/policy-held";
import type { Ancestor } from "./ancestors";
import { findTool } from "./tool-registry";

/** The permissions whose asks a held path marks (lib/review/rules/held-asks markHeld): the file tools' writes and the shell. */
const HELD_PERMISSIONS = new Set(["edit", "bash"]);

/**
 * What one step's calls are held to (issue 41): the session's holds (heldRulesOf: what its approval left held, or the
 * whole review policy before one) and its ancestors' (a subagent works under its parent's approval). Read at most
 * once a step, and only for a call that writes files or runs commands: a read asks no policy.
 */
export function heldForStep(
  state: SessionState,
  policy: () => Promise<HeldRule[]>,
  lineage: readonly Ancestor[],
): (tool: string) => Promise<HeldRule[]> {
  let held: Promise<HeldRule[]> | null = null;
  const read = async () => [
    ...heldRulesOf(state, heldByPolicy(state) ? await policy() : []),
    ...lineage.flatMap((a) => a.held),
  ];
  return (tool) => {
    if (!HELD_PERMISSIONS.has(findTool(tool)?.permission ?? "")) return Promise.resolve([]);
    held ??= read();
    return held;
  };
}

/** The workspace's review policy as held rules, read once however often it is asked for (one step's). */
export function policyOnce(db: Db, workspace: string): () => Promise<HeldRule[]> {
  let policy: Promise<HeldRule[]> | null = null;
  return () => (policy ??= policyHeldRules(db, workspace));
}
