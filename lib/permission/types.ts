/** What the engine answers for one (permission, pattern) decision. */
export type Action = "allow" | "deny" | "ask";

/**
 * Where a rule comes from, which decides whom it may answer for (see `ruleApplies` in gate.ts):
 * - native: Plangate's built-in agents and modes;
 * - config: a workspace's `.plangate/config.json` that a person trusted (this exact content);
 * - untrusted-config: the same file before (or since) that: it may only narrow (deny, ask);
 * - grant: a person's "always" for Plangate's own, sandboxed agent;
 * - outside-grant: a person's "always" for outside agents (Claude Code, OpenCode…), which run unsandboxed.
 */
export type RuleSource = "native" | "config" | "untrusted-config" | "grant" | "outside-grant";
export const RULE_SOURCES = [
  "native",
  "config",
  "untrusted-config",
  "grant",
  "outside-grant",
] as const satisfies readonly RuleSource[];

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
  /** Absent: native. */
  readonly source?: RuleSource;
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

/**
 * One permission question a call raises, as the gate judges it: every pattern is judged (deny wins, then ask,
 * then allow). Tools add what the permission card shows (PermissionAsk in lib/tools/types.ts).
 */
export type CallAsk = {
  permission: string;
  patterns: string[];
  /** Patterns that only an exact rule may allow (commands with redirections, substitutions, expansions, several commands). */
  exactOnly?: readonly string[];
  /** Patterns that are control files: only a person answers, in every mode but bypassPermissions. */
  control?: readonly string[];
  /**
   * Patterns (among `control`) under a path a review policy holds for named reviewers who did not approve the plan:
   * only one of them answers (or an owner's override, with a reason), in every mode, bypassPermissions included.
   */
  held?: readonly string[];
  /** This call cannot change anything (reads; sandboxed read-only bash). */
  readOnly: boolean;
  /** This call writes exactly the session's plan file. */
  planFile?: boolean;
  insideWorkspace?: boolean;
  /** The command would run on the host: no sandbox of Plangate's holds it. */
  unsandboxed?: boolean;
};
