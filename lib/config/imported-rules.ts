import type { Action, PermissionConfig, Rule } from "../permission";

/** A Plangate rule translated from another agent's settings, with where it came from. */
export type ImportedRule = Rule & {
  /** The file it was read from, as shown to the person (".claude/settings.json"). */
  readonly file: string;
  /** The rule as written there ("Bash(npm test:*)", `bash "git *": allow`). */
  readonly from: string;
};

/** A rule (or setting) that has no faithful Plangate equivalent, and why. */
export type Untranslated = { source: string; rule: string; reason: string };

/** A rule that was translated, but not quite one to one: what differs. */
export type ImportNote = { source: string; rule: string; note: string };

/** An agent defined in the imported settings (OpenCode's `agent.<name>`). */
export type ImportedAgent = {
  name: string;
  source: string;
  description?: string;
  mode?: "primary" | "subagent";
  rules: ImportedRule[];
};

export type Translation = {
  /** Workspace-wide rules, in the order Plangate must evaluate them (last match wins). */
  rules: ImportedRule[];
  agents: ImportedAgent[];
  untranslated: Untranslated[];
  notes: ImportNote[];
};

export const emptyTranslation = (): Translation => ({ rules: [], agents: [], untranslated: [], notes: [] });

/**
 * JavaScript orders integer-like object keys ("1", "42") before all others, so such a pattern cannot keep its
 * place among a permission's patterns in `.plangate/config.json`.
 */
export function isIntegerKey(key: string): boolean {
  return /^(0|[1-9]\d{0,8})$/.test(key);
}

export const ruleKey = (r: Pick<Rule, "permission" | "pattern">): string => `${r.permission}\u0000${r.pattern}`;

export function describeRule(r: Pick<Rule, "permission" | "pattern" | "action">): string {
  return `${r.permission} "${r.pattern}" → ${r.action}`;
}

/** The rules a permission block stands for, in order, patterns as written (no `~` expansion). */
export function configToRules(config: PermissionConfig | undefined): Rule[] {
  if (config === undefined) return [];
  const rules: Rule[] = [];
  for (const [permission, value] of Object.entries(config)) {
    if (typeof value === "string") rules.push({ permission, pattern: "*", action: value });
    else for (const [pattern, action] of Object.entries(value)) rules.push({ permission, pattern, action });
  }
  return rules;
}

/**
 * A permission block that evaluates like `rules` (last match wins). Every permission name here is literal, so
 * rules of different permissions never meet and only the order within one permission matters; a pattern that
 * appears twice keeps its last action at its last place (the earlier rule could never win). A permission whose
 * only rule is "*" is written as a bare action.
 */
export function rulesToConfig(rules: readonly Rule[]): PermissionConfig {
  const byPermission = new Map<string, Map<string, Action>>();
  for (const r of rules) {
    let patterns = byPermission.get(r.permission);
    if (!patterns) byPermission.set(r.permission, (patterns = new Map()));
    patterns.delete(r.pattern);
    patterns.set(r.pattern, r.action);
  }
  const config: PermissionConfig = {};
  for (const [permission, patterns] of byPermission) {
    const only = patterns.size === 1 ? patterns.get("*") : undefined;
    config[permission] = only ?? Object.fromEntries(patterns);
  }
  return config;
}

/**
 * Inputs a pattern certainly matches, to ask the real evaluator who wins for them: the pattern with each
 * wildcard standing for "x", and for a trailing " *" also the bare command ("npm test *" → "npm test").
 */
export function samplesFor(pattern: string): string[] {
  const fill = (p: string) => p.replace(/[*?]/g, "x");
  const samples = [fill(pattern)];
  if (pattern.endsWith(" *") && pattern.length > 2) samples.push(fill(pattern.slice(0, -2)));
  return samples;
}
