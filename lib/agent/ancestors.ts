import { heldByPolicy, heldRulesOf } from "../review/rules/held-asks";
import type { HeldRule } from "../review/rules/review-policy";
import type { Db } from "../db/client";
import type { PermissionMode, Ruleset } from "../permission";
import { getSession } from "../session/get-session";
import type { SessionContext } from "./session-context";

export type Ancestor = { id: string; rules: Ruleset; mode: PermissionMode; held: HeldRule[] };

/**
 * A subagent's ancestors with the mode each is in now (read at every step: a parent may have entered plan mode),
 * and the paths each is held to: a subagent writes in its parent's workspace, under its parent's approval.
 */
export async function ancestorsNow(
  db: Db,
  session: SessionContext,
  /** What the workspace's review policy holds before an approval (lib/review/policy-held). */
  policy: () => Promise<HeldRule[]>,
): Promise<Ancestor[]> {
  const out: Ancestor[] = [];
  for (const a of session.ancestors) {
    const { state } = await getSession(db, a.id);
    out.push({ ...a, mode: state.mode, held: heldRulesOf(state, heldByPolicy(state) ? await policy() : []) });
  }
  return out;
}
