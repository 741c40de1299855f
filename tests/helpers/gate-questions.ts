// The permission gate's questions as its table-driven tests build them (lib/permission/gate.test.ts and
// gate-people.test.ts): a call with every fact at its everyday value, and a bash rule.
import type { CallQuestion } from "../../lib/permission/gate";
import type { Action, Rule, RuleSource } from "../../lib/permission/types";

/** Both of a session's gates open (auto's and bypassPermissions'). */
export const OPEN = { autoGateOpen: true, bypassEnabled: true };

export const rule = (action: Action, source?: RuleSource, pattern = "*", exact = false): Rule => ({
  permission: "bash",
  pattern,
  action,
  ...(source ? { source } : {}),
  ...(exact ? { exact: true } : {}),
});

/** The agent's `mkdir x` in the workspace, in default mode, with no rule: `over` says what differs. */
export const call = (over: Partial<CallQuestion>): CallQuestion => ({
  about: "call",
  actor: "agent",
  permission: "bash",
  pattern: "mkdir x",
  mode: "default",
  gates: OPEN,
  readOnly: false,
  insideWorkspace: true,
  rule: undefined,
  ...over,
});
