export type { Action, Rule, Ruleset, EditTool, RuleSource, CallAsk } from "./types";
export { ACTIONS, EDIT_TOOLS, RULE_SOURCES } from "./types";
export { matchWildcard, compileWildcard } from "./wildcard";
export { merge, evaluate, evaluateRule, compileRuleset, type CompiledRuleset } from "./evaluate";
export { disabled, permissionForTool } from "./disabled";
export { fromConfig, permissionConfigSchema, expandHome, type PermissionConfig } from "./config";
export {
  nativeAgents,
  defaultRules,
  resolveAgent,
  agentNames,
  planFilePatterns,
  type AgentDef,
  type AgentMode,
  type NativeAgentName,
  type NativeAgentOptions,
  type CustomAgentConfig,
} from "./agents";
export {
  PERMISSION_MODES,
  MODE_CHANGE_CAUSES,
  isPermissionMode,
  isModeAllowed,
  enterPlan,
  exitPlan,
  setMode,
  resumeMode,
  nextModeInCycle,
  type PermissionMode,
  type ModeGates,
  type ModeChangeCause,
  type ModeState,
  type ModeTransition,
  type SetModeResult,
  type MayCarry,
} from "./modes";
export { decide, type DecideInput } from "./decide";
export {
  gate,
  ruleApplies,
  type Actor,
  type CallFacts,
  type CallQuestion,
  type PlanQuestion,
  type GateQuestion,
  type Decision,
} from "./gate";
export { judgeCall, grantsAllow, onceKey, type JudgeInput, type Judgement, type PatternVerdict } from "./judge-call";
export { literalView } from "./literal-view";
