/** What the engine answers for one (permission, pattern) decision. */
export type Action = "allow" | "deny" | "ask";

/**
 * One rule. `permission` and `pattern` are both wildcards: `permission` is
 * matched against the tool's permission name, `pattern` against the concrete
 * thing the tool touches (a path, a bash command, an agent name…).
 */
export type Rule = {
  readonly permission: string;
  readonly pattern: string;
  readonly action: Action;
  /** The pattern is literal text: `*` and `?` in it match only themselves (a saved exact command). */
  readonly exact?: boolean;
};

/**
 * Rulesets are treated as immutable values: compiled evaluators are cached by
 * array identity, so mutating an array after it was evaluated gives stale
 * answers. Build a new array instead.
 */
export type Ruleset = readonly Rule[];

export const ACTIONS = ["allow", "deny", "ask"] as const satisfies readonly Action[];

/** Tools that share the single "edit" permission. */
export const EDIT_TOOLS = ["edit", "write", "apply_patch"] as const;
export type EditTool = (typeof EDIT_TOOLS)[number];
