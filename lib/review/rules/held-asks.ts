import { type HeldRule, patternMatches } from "./review-policy";
import type { PermissionAsk } from "../../session/log/tool-types";

// A session approved before the flag was kept shows it by the holds its approval recorded.
const approvedHere = (s: { planApproved?: true; heldPaths?: readonly string[] }) =>
  s.planApproved === true || s.heldPaths !== undefined;

/** Whether the session is held to the whole policy (no approval of its own, and no parent whose holds bind it). */
export function heldByPolicy(state: {
  planApproved?: true;
  parentId?: string | null;
  heldPaths?: readonly string[];
}): boolean {
  return !approvedHere(state) && !state.parentId;
}

/**
 * The rules a session is held to (issue 41), the one place they are computed. Once a plan of the session was
 * approved: what that approval left held, whom each pattern belongs to (and for a pattern held before that was
 * recorded, nobody: only an owner's override then releases it). Before any approval: every pattern of the
 * workspace's review policy (`policy`: its path rules and trusted owners lines, for their owners), so a session
 * that never plans is not thereby free of the policy. A subagent works under its parent's approval: before one of
 * its own it adds nothing (its parent's holds, which the caller adds, bind it).
 */
export function heldRulesOf(
  state: {
    planApproved?: true;
    parentId?: string | null;
    heldPaths?: readonly string[];
    heldFor?: readonly HeldRule[];
  },
  policy: readonly HeldRule[],
): HeldRule[] {
  if (heldByPolicy(state)) return [...policy];
  if (!approvedHere(state)) return [];
  const known = state.heldFor ?? [];
  const unknown = (state.heldPaths ?? []).filter((p) => !known.some((r) => r.pattern === p));
  return [...known, ...unknown.map((pattern) => ({ pattern, reviewers: [] }))];
}

/**
 * An ask of Plangate's agent marked as touching held paths: `held` (the patterns the gate then leaves to a person,
 * in every mode) and, for the card, the desk and the answer's check, `metadata.heldFor` (whom they belong to). A
 * file tool names the paths (among its control patterns); a shell command names the held patterns no folder could
 * hold (`metadata.held`). Any other ask is returned as it is.
 */
export function markHeld(ask: PermissionAsk, rules: readonly HeldRule[]): PermissionAsk {
  if (rules.length === 0) return ask;
  let held: string[] = [];
  let touched: HeldRule[] = [];
  if (ask.permission === "edit") {
    held = (ask.control ?? []).filter((p) => rules.some((r) => patternMatches(r.pattern, p)));
    touched = rules.filter((r) => held.some((p) => patternMatches(r.pattern, p)));
  } else if (ask.permission === "bash" && Array.isArray(ask.metadata?.held)) {
    const loose = ask.metadata.held as unknown[];
    touched = rules.filter((r) => loose.includes(r.pattern));
    held = touched.length > 0 ? [...(ask.control ?? ask.patterns)] : [];
  }
  if (held.length === 0) return ask;
  return { ...ask, held, metadata: { ...ask.metadata, heldFor: touched } };
}
